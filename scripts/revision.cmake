# SPDX-License-Identifier: MIT
# Writes OUT, a C file defining carrera_revision: the git revision of SRC (with -dirty for local
# changes), read at every build so that provenance never names a stale revision. OUT is rewritten
# only when the revision changes, so an unchanged tree rebuilds nothing.
execute_process(
    COMMAND git describe --always --dirty --abbrev=12
    WORKING_DIRECTORY "${SRC}"
    OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE result ERROR_QUIET)
if(NOT result EQUAL 0 OR NOT revision)
    set(revision "unknown")
endif()
set(content "/* Written at build time by scripts/revision.cmake. */\nconst char carrera_revision[] = \"${revision}\";\n")
set(old "")
if(EXISTS "${OUT}")
    file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL content)
    file(WRITE "${OUT}" "${content}")
endif()
