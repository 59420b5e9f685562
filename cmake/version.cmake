# Writes the version header at build time (cmake -P), so that the commit a binary reports is the
# one it was built from: a configure-time value goes stale with every later commit. "-dirty"
# marks a build from modified tracked files. configure_file leaves an unchanged header alone,
# so nothing recompiles unless the commit moved.
# Inputs: SOURCE_DIR, TEMPLATE, OUTPUT, PROJECT_VERSION, GPUGA_BUILD_INFO; the environment's
# GPUGA_GIT_COMMIT where SOURCE_DIR is no git checkout.
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE GPUGA_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR GPUGA_GIT_COMMIT STREQUAL "")
  # A copy of the tree without .git (the GPU machines get one): the commit its sender recorded.
  if(DEFINED ENV{GPUGA_GIT_COMMIT})
    set(GPUGA_GIT_COMMIT "$ENV{GPUGA_GIT_COMMIT}")
  else()
    set(GPUGA_GIT_COMMIT "unknown")
  endif()
else()
  execute_process(COMMAND git diff --quiet HEAD --
                  WORKING_DIRECTORY ${SOURCE_DIR} RESULT_VARIABLE modified ERROR_QUIET)
  if(NOT modified EQUAL 0)
    string(APPEND GPUGA_GIT_COMMIT "-dirty")
  endif()
endif()
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
