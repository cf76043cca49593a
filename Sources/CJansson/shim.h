// The only C header maskd includes: Debian's jansson (libjansson-dev).
#include <jansson.h>
