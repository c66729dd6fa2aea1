#include <stddef.h>
#include <stdint.h>
#include <webp/decode.h>
