# What `cmake --install` puts under the prefix (included from CMakeLists.txt
# once the modules and libvoltex.a are defined):
#   lib/libvoltex.a, lib/libvoltex.so (SONAME libvoltex.so.MAJOR, or
#     libvoltex.so.0.MINOR before 1.0), both of the same module objects
#   include/voltex/*.h   the public headers, nothing of src/
#   bin/voltex-sim       the program (linked statically against libvoltex)
#   share/man/man1/voltex-sim.1, share/voltex/scene.schema.json,
#   share/bash-completion/completions/voltex-sim
#   lib/cmake/voltex/    the CMake package: find_package(voltex) gives
#     voltex::voltex (static) and voltex::voltex_shared
#   lib/pkgconfig/voltex.pc
# tests/install/test_install.c installs a build into a temporary prefix and
# builds docs/examples/ball_drop.c against it both ways.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The shared library is made of the same objects as the static one, so they
# are compiled position-independent. Without semantic interposition GCC may
# still inline and call the library's own functions directly, as it does
# without -fPIC (nobody is to replace a libvoltex function at load time).
set(VX_MODULES vx_common vx_ecs vx_physics vx_reference vx_scene vx_trace)
set_target_properties(${VX_MODULES} PROPERTIES POSITION_INDEPENDENT_CODE ON)
foreach(module ${VX_MODULES})
  target_compile_options(${module} PRIVATE -fno-semantic-interposition)
endforeach()

# Before 1.0 every minor version may change the ABI: the SONAME carries it.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(VX_SOVERSION 0.${PROJECT_VERSION_MINOR})
  set(VX_PACKAGE_COMPATIBILITY SameMinorVersion)
else()
  set(VX_SOVERSION ${PROJECT_VERSION_MAJOR})
  set(VX_PACKAGE_COMPATIBILITY SameMajorVersion)
endif()

set(VX_MODULE_OBJECTS "")
foreach(module ${VX_MODULES})
  list(APPEND VX_MODULE_OBJECTS $<TARGET_OBJECTS:${module}>)
endforeach()
add_library(voltex_shared SHARED ${VX_MODULE_OBJECTS})
target_include_directories(voltex_shared PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>)
# cJSON, threads and libm are the library's own business: its users link
# libvoltex.so alone.
target_link_libraries(voltex_shared PRIVATE PkgConfig::CJSON Threads::Threads m)
target_link_options(voltex_shared PRIVATE -Wl,--no-undefined)
set_target_properties(voltex_shared PROPERTIES OUTPUT_NAME voltex EXPORT_NAME voltex_shared
                                               VERSION ${PROJECT_VERSION} SOVERSION ${VX_SOVERSION})
add_library(voltex::voltex_shared ALIAS voltex_shared)

install(TARGETS voltex voltex_shared EXPORT voltexTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS voltex-sim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/scripts/completion/voltex-sim.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME voltex-sim)
install(FILES ${PROJECT_SOURCE_DIR}/docs/man/voltex-sim.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/schema/scene.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/voltex)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/voltex DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

# The CMake package: the targets, the dependencies they name found again on
# the user's machine (voltexConfig.cmake), and the version rule.
set(VX_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/voltex)
install(EXPORT voltexTargets NAMESPACE voltex:: DESTINATION ${VX_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/voltexConfigVersion.cmake
                                 COMPATIBILITY ${VX_PACKAGE_COMPATIBILITY})
install(FILES ${PROJECT_SOURCE_DIR}/cmake/voltexConfig.cmake ${PROJECT_BINARY_DIR}/voltexConfigVersion.cmake
        DESTINATION ${VX_CMAKE_DIR})

# voltex.pc names the prefix it is installed under, which `cmake --install
# --prefix` may choose after configuring: the file is written at install time,
# straight into the prefix (so two installs of one build may run at once).
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(VX_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(VX_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
set(VX_PC_PREFIX "@VX_PC_INSTALL_PREFIX@") # filled in at install time
configure_file(${PROJECT_SOURCE_DIR}/cmake/voltex.pc.in ${PROJECT_BINARY_DIR}/voltex.pc.in @ONLY)
set(VX_PC_FILE ${CMAKE_INSTALL_LIBDIR}/pkgconfig/voltex.pc)
if(NOT IS_ABSOLUTE "${VX_PC_FILE}")
  set(VX_PC_FILE "\${CMAKE_INSTALL_PREFIX}/${VX_PC_FILE}")
endif()
install(CODE "
  set(VX_PC_INSTALL_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  message(STATUS \"Installing: \$ENV{DESTDIR}${VX_PC_FILE}\")
  configure_file(\"${PROJECT_BINARY_DIR}/voltex.pc.in\" \"\$ENV{DESTDIR}${VX_PC_FILE}\" @ONLY)
  list(APPEND CMAKE_INSTALL_MANIFEST_FILES \"${VX_PC_FILE}\")
")
