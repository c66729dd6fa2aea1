// See include/png_shim.h. Every function that calls libpng sets a jump buffer first;
// libpng's error callback copies the message and longjmps back to it.
#include "png_shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *message;
    size_t capacity;
} error_sink;

static void copy_message(error_sink *sink, const char *text) {
    if (sink == NULL || sink->message == NULL || sink->capacity == 0) return;
    strncpy(sink->message, text != NULL ? text : "unknown libpng error", sink->capacity - 1);
    sink->message[sink->capacity - 1] = 0;
}

static void on_error(png_structp png, png_const_charp text) {
    copy_message((error_sink *)png_get_error_ptr(png), text);
    png_longjmp(png, 1);
}

// Warnings (benign chunk problems) are not errors; they are dropped rather than printed.
static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

typedef struct {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    int failed;
} output_buffer;

static void write_bytes(png_structp png, png_bytep data, size_t length) {
    output_buffer *out = (output_buffer *)png_get_io_ptr(png);
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity * 2;
        if (capacity < out->size + length) capacity = out->size + length;
        uint8_t *grown = (uint8_t *)realloc(out->bytes, capacity);
        if (grown == NULL) {
            out->failed = 1;
            png_error(png, "out of memory for the encoded PNG");
        }
        out->bytes = grown;
        out->capacity = capacity;
    }
    memcpy(out->bytes + out->size, data, length);
    out->size += length;
}

static void flush_bytes(png_structp png) { (void)png; }

int fb_png_write(const uint8_t *rows, size_t stride, uint32_t width, uint32_t height,
                 const fb_png_write_options *options, const uint8_t *row_filters,
                 uint8_t **out, size_t *out_size, char *message, size_t message_capacity) {
    error_sink sink = {message, message_capacity};
    // Filtered rows of flat UI frames deflate to about 1% of their size; 64 KiB covers most.
    output_buffer buffer = {NULL, 0, 65536, 0};
    buffer.bytes = (uint8_t *)malloc(buffer.capacity);
    if (buffer.bytes == NULL) {
        copy_message(&sink, "out of memory for the encoded PNG");
        return 1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &sink, on_error, on_warning);
    png_infop info = png != NULL ? png_create_info_struct(png) : NULL;
    if (png == NULL || info == NULL) {
        png_destroy_write_struct(&png, &info);
        free(buffer.bytes);
        copy_message(&sink, "libpng could not allocate its write structures");
        return 1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buffer.bytes);
        return 1;
    }
    png_set_write_fn(png, &buffer, write_bytes, flush_bytes);
    png_set_IHDR(png, info, width, height, 8, options->color_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, options->filters);
    png_set_compression_level(png, options->zlib_level);
    png_set_compression_strategy(png, options->zlib_strategy);
    png_set_compression_mem_level(png, options->zlib_mem_level);
    // Larger IDAT chunks: fewer zlib calls and chunk headers.
    png_set_compression_buffer_size(png, 1 << 17);
    if (options->text_keyword != NULL && options->text != NULL) {
        png_text text;
        memset(&text, 0, sizeof text);
        text.compression = PNG_TEXT_COMPRESSION_NONE;
        text.key = (png_charp)options->text_keyword;
        text.text = (png_charp)options->text;
        text.text_length = strlen(options->text);
        png_set_text(png, info, &text, 1);
    }
    png_write_info(png, info);
    if (options->strip_filler) png_set_filler(png, 0, PNG_FILLER_AFTER);
    for (uint32_t y = 0; y < height; y++) {
        // libpng allocates the buffers of every filter in `filters` on the first row;
        // from then on each row may name one of them.
        if ((y & 63) == 63 && options->should_stop != NULL && options->should_stop()) {
            png_destroy_write_struct(&png, &info);
            free(buffer.bytes);
            copy_message(&sink, "interrupted");
            return 2;
        }
        if (row_filters != NULL && y > 0) png_set_filter(png, PNG_FILTER_TYPE_BASE, row_filters[y]);
        png_write_row(png, (png_const_bytep)(rows + (size_t)y * stride));
    }
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    *out = buffer.bytes;
    *out_size = buffer.size;
    return 0;
}

void fb_png_free(void *pointer) { free(pointer); }

typedef struct {
    const uint8_t *bytes;
    size_t size;
    size_t offset;
} input_buffer;

struct fb_png_reader {
    png_structp png;
    png_infop info;
    input_buffer input;
    error_sink sink;
};

static void read_bytes(png_structp png, png_bytep data, size_t length) {
    input_buffer *in = (input_buffer *)png_get_io_ptr(png);
    if (in->size - in->offset < length) png_error(png, "read beyond end of data");
    memcpy(data, in->bytes + in->offset, length);
    in->offset += length;
}

fb_png_reader *fb_png_read_begin(const uint8_t *bytes, size_t size, fb_png_info *result,
                                 char *message, size_t message_capacity) {
    fb_png_reader *reader = (fb_png_reader *)calloc(1, sizeof(fb_png_reader));
    if (reader == NULL) return NULL;
    reader->input = (input_buffer){bytes, size, 0};
    reader->sink = (error_sink){message, message_capacity};
    reader->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &reader->sink, on_error, on_warning);
    reader->info = reader->png != NULL ? png_create_info_struct(reader->png) : NULL;
    if (reader->png == NULL || reader->info == NULL) {
        copy_message(&reader->sink, "libpng could not allocate its read structures");
        fb_png_read_abandon(reader);
        return NULL;
    }
    if (setjmp(png_jmpbuf(reader->png))) {
        fb_png_read_abandon(reader);
        return NULL;
    }
    png_set_read_fn(reader->png, &reader->input, read_bytes);
    png_read_info(reader->png, reader->info);
    png_uint_32 width, height;
    int depth, color, interlace;
    png_get_IHDR(reader->png, reader->info, &width, &height, &depth, &color, &interlace, NULL, NULL);
    result->width = width;
    result->height = height;
    result->bit_depth = depth;
    result->color_type = color;
    result->interlaced = interlace != PNG_INTERLACE_NONE;
    result->needs_conversion = depth != 8 || color == PNG_COLOR_TYPE_PALETTE
        || png_get_valid(reader->png, reader->info, PNG_INFO_gAMA | PNG_INFO_cHRM | PNG_INFO_iCCP | PNG_INFO_tRNS) != 0;
    return reader;
}

int fb_png_read_finish(fb_png_reader *reader, uint8_t *pixels, char *message, size_t message_capacity) {
    reader->sink = (error_sink){message, message_capacity};
    png_structp png = reader->png;
    // Declared before setjmp and not changed after it, as longjmp requires.
    png_bytep *volatile row_pointers = NULL;
    if (setjmp(png_jmpbuf(png))) {
        free(row_pointers);
        fb_png_read_abandon(reader);
        return 1;
    }
    png_uint_32 width = png_get_image_width(png, reader->info);
    png_uint_32 height = png_get_image_height(png, reader->info);
    int color = png_get_color_type(png, reader->info);
    // To 8-bit RGBA: palettes and low-depth grey expanded, tRNS to alpha, grey to RGB,
    // an opaque alpha added where the file has none.
    if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (color == PNG_COLOR_TYPE_GRAY && png_get_bit_depth(png, reader->info) < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, reader->info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (png_get_bit_depth(png, reader->info) == 16) png_set_strip_16(png);
    if (color == PNG_COLOR_TYPE_GRAY || color == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
    if (!(color & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, reader->info, PNG_INFO_tRNS)) {
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    png_set_interlace_handling(png);
    png_read_update_info(png, reader->info);
    if (png_get_rowbytes(png, reader->info) != (size_t)width * 4) png_error(png, "unexpected row size after conversion");
    row_pointers = (png_bytep *)malloc(sizeof(png_bytep) * (height > 0 ? height : 1));
    if (row_pointers == NULL) png_error(png, "out of memory for the row table");
    for (png_uint_32 y = 0; y < height; y++) row_pointers[y] = pixels + (size_t)y * width * 4;
    // Like libpng's simplified reader, chunks after the image data (up to IEND) are not
    // read: a file cut after its last IDAT still decodes.
    png_read_image(png, row_pointers);
    free(row_pointers);
    fb_png_read_abandon(reader);
    return 0;
}

void fb_png_read_abandon(fb_png_reader *reader) {
    if (reader == NULL) return;
    png_destroy_read_struct(&reader->png, &reader->info, NULL);
    free(reader);
}
