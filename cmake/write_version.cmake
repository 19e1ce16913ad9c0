# Writes the tool's version header (src/util/version.h.in) at every build, and only when its
# text changed, so a commit that changes the revision recompiles just the files that print it.
# Run by the fathom_version target: cmake -DSOURCE_DIR=... -DIN=... -DOUT=... -DVERSION=... -P
#
# The revision is the last commit that changed what the executable is built from (src/, the
# top CMakeLists.txt and this folder), not HEAD: a commit of documentation, tests, suites or
# firmware builds the same executable, and its stored results (keyed on the executable's
# SHA-256, pipeline/result_cache.h) stay valid.
execute_process(COMMAND git -C ${SOURCE_DIR} log -1 --format=%h --abbrev=12 --
                        src CMakeLists.txt cmake
                OUTPUT_VARIABLE FATHOM_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET)
if(NOT FATHOM_GIT_REVISION)
  set(FATHOM_GIT_REVISION "unknown")
endif()
set(PROJECT_VERSION ${VERSION})
configure_file(${IN} ${OUT} @ONLY)
