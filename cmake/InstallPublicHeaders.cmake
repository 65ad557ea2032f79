# Run by `cmake --install`: installs the public entry headers and every frazil header they
# include, transitively, under <prefix>/<includedir>/frazil/..., so a consumer compiles
# against the installed tree alone (no -Isrc). The closure is computed at install time
# from the sources as they are, so a header that gains an include is never left out.
#
# Expects FRAZIL_HEADER_ROOTS (directories searched in order: include/, the generated
# include/, src/), FRAZIL_PUBLIC_HEADERS (entry headers, relative: frazil/frazil.hpp) and
# FRAZIL_INSTALL_INCLUDEDIR (relative to the prefix).
set(queue ${FRAZIL_PUBLIC_HEADERS})
set(seen "")
while(queue)
  list(POP_FRONT queue rel)
  if(rel IN_LIST seen)
    continue()
  endif()
  list(APPEND seen ${rel})
  set(found "")
  foreach(root ${FRAZIL_HEADER_ROOTS})
    if(EXISTS "${root}/${rel}")
      set(found "${root}/${rel}")
      break()
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "frazil: public header ${rel} not found in ${FRAZIL_HEADER_ROOTS}")
  endif()
  file(STRINGS "${found}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]frazil/")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]*[\"<](frazil/[^\">]+)[\">].*$" "\\1" inc "${line}")
    list(APPEND queue ${inc})
  endforeach()
  get_filename_component(dir "${rel}" DIRECTORY)
  file(INSTALL DESTINATION "${CMAKE_INSTALL_PREFIX}/${FRAZIL_INSTALL_INCLUDEDIR}/${dir}" TYPE FILE FILES "${found}")
endwhile()
