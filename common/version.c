/* version: the only file compiled with the version string (see version.h). */
#include "version.h"

#ifndef BS_VERSION
#define BS_VERSION "unknown"
#endif

const char version_text[] = BS_VERSION;
