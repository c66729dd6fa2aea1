// A thin C layer over libpng's full write and read APIs. libpng reports errors by
// longjmp; Swift cannot catch that, so every libpng call runs here, below a setjmp, and an
// error comes back as a non-zero result and libpng's message.
#ifndef FLIPBOOK_PNG_SHIM_H
#define FLIPBOOK_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// How one image is written.
typedef struct {
    /// PNG color type: 0 grey, 2 RGB, 4 grey + alpha, 6 RGBA (8 bits per channel).
    int color_type;
    /// The rows hold one byte more per pixel than the color type (RGBA rows written as RGB):
    /// libpng drops the fourth byte of each pixel (png_set_filler).
    int strip_filler;
    /// libpng's filter mask (PNG_FILTER_NONE 0x08, SUB 0x10, UP 0x20, AVG 0x40, PAETH 0x80)
    /// for the whole image; with `row_filters`, every filter the rows will use.
    int filters;
    /// zlib level (0…9), strategy (Z_DEFAULT_STRATEGY 0, Z_FILTERED 1, Z_RLE 3) and memory
    /// level (1…9).
    int zlib_level;
    int zlib_strategy;
    int zlib_mem_level;
    /// When both are not NULL: one uncompressed tEXt chunk (Latin-1 keyword of 1…79
    /// characters, then its text), written before the image data.
    const char *text_keyword;
    const char *text;
    /// Polled every 64 rows when not NULL: a non-zero answer stops the encoding, which then
    /// fails (returns 2) with the message "interrupted".
    int (*should_stop)(void);
} fb_png_write_options;

/// Encodes `height` rows of `width` pixels, `stride` bytes apart. `row_filters`, when not
/// NULL, gives the single filter (a PNG_FILTER_* bit) of each row after the first.
/// On success returns 0 and a malloc'ed buffer in `*out` (free it with fb_png_free) of
/// `*out_size` bytes; on failure returns 1 and libpng's message in `message` (2 when `should_stop` stopped it).
int fb_png_write(const uint8_t *rows, size_t stride, uint32_t width, uint32_t height,
                 const fb_png_write_options *options, const uint8_t *row_filters,
                 uint8_t **out, size_t *out_size, char *message, size_t message_capacity);

void fb_png_free(void *pointer);

/// The header of a PNG in memory, read without decoding pixels.
typedef struct {
    uint32_t width;
    uint32_t height;
    int color_type;
    int bit_depth;
    int interlaced;
    /// The file carries gAMA, cHRM, iCCP or tRNS, or is not 8 bits per channel:
    /// libpng's simplified reader converts such files in ways this reader does not.
    int needs_conversion;
} fb_png_info;

/// A reader over PNG bytes in memory: begin (reads the header), then finish (decodes).
typedef struct fb_png_reader fb_png_reader;

/// Reads the header of `size` bytes at `bytes` (which must outlive the reader). Returns
/// NULL and a message on failure.
fb_png_reader *fb_png_read_begin(const uint8_t *bytes, size_t size, fb_png_info *info,
                                 char *message, size_t message_capacity);

/// Decodes every row as 8-bit RGBA (straight alpha), `width * 4` bytes per row, into
/// `pixels`. Returns 0, or 1 and a message. Always frees the reader.
int fb_png_read_finish(fb_png_reader *reader, uint8_t *pixels, char *message, size_t message_capacity);

/// Frees a reader that will not be finished.
void fb_png_read_abandon(fb_png_reader *reader);

#ifdef __cplusplus
}
#endif

#endif
