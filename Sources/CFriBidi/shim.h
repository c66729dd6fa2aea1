// FriBidi: the Unicode Bidirectional Algorithm (UAX #9) for FlipbookText.
#include <fribidi.h>

// The paragraph directions are macros built from bit masks, which Swift does not import.
static inline FriBidiParType fb_par_ltr(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType fb_par_rtl(void) { return FRIBIDI_PAR_RTL; }
static inline FriBidiParType fb_par_on(void) { return FRIBIDI_PAR_ON; }
