# CTest `package_install`: installs the built library (no rebuild) into a temporary prefix,
# then, as a user of the package would:
#   1. builds examples/ as an outside project with find_package(frazil CONFIG) and runs them;
#   2. compiles and runs one program with nothing but `pkg-config --cflags --libs frazil`;
#   3. configures a project that pulls frazil's sources in with add_subdirectory.
# Expects BUILD_DIR, SOURCE_DIR, LIBDIR, CXX, GENERATOR, MAKE_PROGRAM (LAUNCHER optional).
set(work ${BUILD_DIR}/package-test)
file(REMOVE_RECURSE ${work})
set(prefix ${work}/prefix)

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(run_output "${out}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component dev)

# Nothing of src/ may be needed: the installed headers must stand alone.
if(EXISTS ${prefix}/include/frazil/plan/ir.hpp OR EXISTS ${prefix}/include/frazil/exec/executor.hpp)
  message(FATAL_ERROR "internal headers were installed")
endif()

set(launcher "")
if(LAUNCHER)
  set(launcher -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples -B ${work}/examples -G ${GENERATOR} -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}
    -DCMAKE_CXX_COMPILER=${CXX} ${launcher} -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
run(${CMAKE_COMMAND} --build ${work}/examples)
file(GLOB examples ${SOURCE_DIR}/examples/*.cpp)
foreach(example ${examples})
  get_filename_component(name ${example} NAME_WE)
  run(${work}/examples/example_${name})
endforeach()

# pkg-config, when installed.
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${LIBDIR}/pkgconfig)
  run(${PKG_CONFIG} --cflags --libs --static frazil)
  string(STRIP "${run_output}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${CXX} -std=c++20 -O1 ${SOURCE_DIR}/tests/package/version_main.cpp -o ${work}/version_main ${flags})
  # A shared libfrazil in a private prefix is found through LD_LIBRARY_PATH (no rpath).
  run(${CMAKE_COMMAND} -E env LD_LIBRARY_PATH=${prefix}/${LIBDIR} ${work}/version_main)
  if(NOT run_output MATCHES "^frazil [0-9]+\\.[0-9]+\\.[0-9]+")
    message(FATAL_ERROR "version_main printed: ${run_output}")
  endif()
endif()

# add_subdirectory (and so FetchContent): configuring is what used to fail; building it
# would compile the whole library again, which the build above has already shown works.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/package/subproject -B ${work}/subproject -G ${GENERATOR}
    -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM} -DCMAKE_CXX_COMPILER=${CXX} -DFRAZIL_SOURCE_DIR=${SOURCE_DIR})
file(REMOVE_RECURSE ${work})
