/* version: `git describe` of the build, for -V and every report. One small object that a new
 * commit recompiles; everything else only relinks. */
#ifndef VERSION_H
#define VERSION_H

extern const char version_text[];

#endif
