# Install rules: the library, the public headers (frazil/frazil.hpp and what it includes),
# the CMake package (find_package(frazil CONFIG) -> frazil::frazil) and frazil.pc.
# Everything a C++ consumer needs is in the component "dev"; the Python module is in
# "python" (what a wheel installs) and the command line in "cli".
include(CMakePackageConfigHelpers)
set(FRAZIL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/frazil)

install(TARGETS frazil EXPORT frazilTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT dev)
install(EXPORT frazilTargets NAMESPACE frazil:: DESTINATION ${FRAZIL_CMAKE_DIR} COMPONENT dev)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/frazilConfig.cmake.in
  ${PROJECT_BINARY_DIR}/frazilConfig.cmake INSTALL_DESTINATION ${FRAZIL_CMAKE_DIR})
# 0.x releases may change the API between minor versions.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/frazilConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/frazilConfig.cmake ${PROJECT_BINARY_DIR}/frazilConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FrazilDependencies.cmake
        DESTINATION ${FRAZIL_CMAKE_DIR} COMPONENT dev)

# pkg-config: a static libfrazil lists its codecs and RE2 under Libs.private
# (`pkg-config --static --libs frazil`).
set(FRAZIL_PC_LIBS_PRIVATE "")
foreach(dep ${FRAZIL_DEPENDENCY_TARGETS})
  get_target_property(location ${dep} IMPORTED_LOCATION)
  string(APPEND FRAZIL_PC_LIBS_PRIVATE " ${location}")
endforeach()
string(APPEND FRAZIL_PC_LIBS_PRIVATE " -pthread")
string(STRIP "${FRAZIL_PC_LIBS_PRIVATE}" FRAZIL_PC_LIBS_PRIVATE)
set(FRAZIL_PC_PREFIX "@FRAZIL_PREFIX@")
configure_file(${PROJECT_SOURCE_DIR}/cmake/frazil.pc.in ${PROJECT_BINARY_DIR}/frazil.pc.in.configured @ONLY)
# The prefix is the one given to `cmake --install --prefix`, not the configure-time one.
install(CODE "
  file(READ \"${PROJECT_BINARY_DIR}/frazil.pc.in.configured\" pc)
  string(REPLACE \"@FRAZIL_PREFIX@\" \"\${CMAKE_INSTALL_PREFIX}\" pc \"\${pc}\")
  file(WRITE \"${PROJECT_BINARY_DIR}/frazil.pc\" \"\${pc}\")
  file(INSTALL DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig\" TYPE FILE
       FILES \"${PROJECT_BINARY_DIR}/frazil.pc\")" COMPONENT dev)

set(FRAZIL_PUBLIC_HEADERS frazil/frazil.hpp frazil/version.hpp frazil/arrow.hpp)
install(CODE "
  set(FRAZIL_HEADER_ROOTS \"${PROJECT_SOURCE_DIR}/include;${PROJECT_BINARY_DIR}/include;${PROJECT_SOURCE_DIR}/src\")
  set(FRAZIL_PUBLIC_HEADERS \"${FRAZIL_PUBLIC_HEADERS}\")
  set(FRAZIL_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
  include(\"${PROJECT_SOURCE_DIR}/cmake/InstallPublicHeaders.cmake\")" COMPONENT dev)

if(TARGET frazil_cli)
  install(TARGETS frazil_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
endif()
