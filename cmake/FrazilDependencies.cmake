# The libraries frazil links privately: the Parquet codecs (zstd, lz4, snappy, zlib, brotli), RE2,
# and for the str/dt namespaces and the JSON readers utf8proc (normalization, graphemes), ICU's common library
# (full Unicode case mapping), simdjson (str.json_decode, NDJSON) and cctz (time zones, reading the
# system's tzdata). Included by the build and, for a static libfrazil, by the installed frazilConfig.cmake
# so that a consumer links the one target frazil::frazil and these follow.
#
# Each becomes an imported target frazil::dep_<name>. FRAZIL_STATIC_DEPS prefers the static
# archives of the codecs (Debian's -dev packages ship them), which a portable wheel links so
# that it runs on machines without those libraries. RE2 stays shared: Debian's libre2.a is
# built for executables only (its thread-local hooks use local-exec TLS relocations, which a
# shared object such as the Python module cannot hold); the wheel carries libre2.so instead
# (auditwheel repair copies it in).
include_guard(GLOBAL)

find_package(Threads REQUIRED)

function(_frazil_dependency name static_ok header)
  set(libnames ${ARGN})
  if(TARGET frazil::dep_${name})
    return()
  endif()
  set(search_names "")
  set(var FRAZIL_${name}_LIBRARY)
  if(FRAZIL_STATIC_DEPS AND static_ok)
    set(var FRAZIL_${name}_STATIC_LIBRARY)
    foreach(lib ${libnames})
      list(APPEND search_names ${CMAKE_STATIC_LIBRARY_PREFIX}${lib}${CMAKE_STATIC_LIBRARY_SUFFIX})
    endforeach()
  endif()
  list(APPEND search_names ${libnames})
  find_path(FRAZIL_${name}_INCLUDE_DIR ${header})
  find_library(${var} NAMES ${search_names})
  if(NOT FRAZIL_${name}_INCLUDE_DIR OR NOT ${var})
    message(FATAL_ERROR "frazil needs ${name} (${header}, lib${libnames}); on Debian: apt-get install "
                        "libzstd-dev liblz4-dev libsnappy-dev zlib1g-dev libbrotli-dev libre2-dev libutf8proc-dev "
                        "libicu-dev libsimdjson-dev libcctz-dev tzdata libpg-query-dev libprotobuf-c-dev")
  endif()
  add_library(frazil::dep_${name} UNKNOWN IMPORTED)
  set_target_properties(frazil::dep_${name} PROPERTIES
    IMPORTED_LOCATION "${${var}}"
    INTERFACE_INCLUDE_DIRECTORIES "${FRAZIL_${name}_INCLUDE_DIR}")
endfunction()

_frazil_dependency(zstd ON zstd.h zstd)
_frazil_dependency(lz4 ON lz4frame.h lz4)
_frazil_dependency(snappy ON snappy-c.h snappy)
_frazil_dependency(zlib ON zlib.h z)
_frazil_dependency(brotlienc ON brotli/encode.h brotlienc)
_frazil_dependency(brotlidec ON brotli/decode.h brotlidec)
_frazil_dependency(brotlicommon ON brotli/types.h brotlicommon)
_frazil_dependency(re2 OFF re2/re2.h re2)
_frazil_dependency(utf8proc ON utf8proc.h utf8proc)
# ICU, simdjson and cctz stay shared (Debian ships no usable archives of the last two; a
# static ICU would also need its 30 MB data library linked in).
_frazil_dependency(icuuc OFF unicode/ucasemap.h icuuc)
_frazil_dependency(simdjson OFF simdjson.h simdjson)
_frazil_dependency(cctz OFF cctz/time_zone.h cctz)
# PostgreSQL's SQL grammar for the sql layer (Debian libpg-query-dev; libpg_query carries
# its protobuf-c runtime, whose header comes from libprotobuf-c-dev).
_frazil_dependency(pg_query ON pg_query.h pg_query)
# RE2 and snappy are C++: libstdc++ comes with any C++ link. RE2 takes locks (pthreads).
set_property(TARGET frazil::dep_simdjson APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS SIMDJSON_THREADS_ENABLED=1)
set_property(TARGET frazil::dep_re2 APPEND PROPERTY INTERFACE_LINK_LIBRARIES Threads::Threads)

set(FRAZIL_DEPENDENCY_TARGETS frazil::dep_zstd frazil::dep_lz4 frazil::dep_snappy frazil::dep_zlib
    frazil::dep_brotlienc frazil::dep_brotlidec frazil::dep_brotlicommon frazil::dep_re2
    frazil::dep_utf8proc frazil::dep_icuuc frazil::dep_simdjson frazil::dep_cctz
    frazil::dep_pg_query)
