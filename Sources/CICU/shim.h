// ICU's line break iterator (UAX #14) for FlipbookText.
//
// Two things keep ICU's own headers out of Swift's sight: the toolchain's Foundation
// carries a private ICU (_FoundationICU) whose headers define the same C types with other
// members, and ICU renames every C entry point with its version (ubrk_open →
// ubrk_open_72) through macros Swift cannot import. So only <unicode/uvernum.h> (the
// version suffix, no types) is included, the few functions used are declared here with
// their versioned names and plain C types of the same ABI (UBreakIterator* → void*,
// UErrorCode and UBreakIteratorType are C ints), and static inline wrappers give Swift
// stable names that work with whichever ICU is installed.
#include <stdint.h>
#include <unicode/uvernum.h>

#define FB_ICU_CAT2(name, suffix) name##suffix
#define FB_ICU_CAT(name, suffix) FB_ICU_CAT2(name, suffix)
#define FB_ICU(name) FB_ICU_CAT(name, U_ICU_VERSION_SUFFIX)

void *FB_ICU(ubrk_open)(int type, const char *locale, const uint16_t *text, int32_t length, int *status);
int32_t FB_ICU(ubrk_first)(void *iterator);
int32_t FB_ICU(ubrk_next)(void *iterator);
void FB_ICU(ubrk_close)(void *iterator);

/// UBRK_LINE in ICU's UBreakIteratorType, UBRK_DONE, and U_ZERO_ERROR (failures are > 0).
enum { FB_UBRK_LINE = 2, FB_UBRK_DONE = -1 };

/// A line break iterator over `text` (UTF-16) for `locale`, or NULL if ICU fails.
static inline void *fb_ubrk_open_line(const char *locale, const uint16_t *text, int32_t length) {
    int status = 0;
    void *iterator = FB_ICU(ubrk_open)(FB_UBRK_LINE, locale, text, length, &status);
    if (status > 0) {
        if (iterator) FB_ICU(ubrk_close)(iterator);
        return 0;
    }
    return iterator;
}
static inline int32_t fb_ubrk_first(void *iterator) { return FB_ICU(ubrk_first)(iterator); }
static inline int32_t fb_ubrk_next(void *iterator) { return FB_ICU(ubrk_next)(iterator); }
static inline void fb_ubrk_close(void *iterator) { FB_ICU(ubrk_close)(iterator); }
