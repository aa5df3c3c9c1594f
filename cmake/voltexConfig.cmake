# find_package(voltex): the imported targets voltex::voltex (libvoltex.a)
# and voltex::voltex_shared (libvoltex.so), with what libvoltex.a needs
# found here: cJSON through pkg-config (libcjson), threads, libm.
include(CMakeFindDependencyMacro)

set(THREADS_PREFER_PTHREAD_FLAG ON)
find_dependency(Threads)
find_dependency(PkgConfig)
if(NOT TARGET PkgConfig::CJSON)
  pkg_check_modules(CJSON QUIET IMPORTED_TARGET libcjson)
  if(NOT TARGET PkgConfig::CJSON)
    set(voltex_FOUND FALSE)
    set(voltex_NOT_FOUND_MESSAGE "voltex needs cJSON, found through pkg-config as libcjson (Debian: libcjson-dev)")
    return()
  endif()
endif()

include(${CMAKE_CURRENT_LIST_DIR}/voltexTargets.cmake)
