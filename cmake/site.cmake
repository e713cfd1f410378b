# The static model pages (`llmsim-cli site`) in the served folder next to the app: ${CMAKE_BINARY_DIR}/site.
# Natively the generator is this build's llmsim-cli. The web build has no native CLI, so it builds one as a host
# tool (ExternalProject, engine + CLI only, built with make's jobserver, in ${CMAKE_BINARY_DIR}/host) with the machine's own C++ compiler, or
# uses -DLLMSIM_HOST_CLI=/path/to/llmsim-cli. The pages are regenerated when the generator changes (a stamp).
# The web build's host CLI also writes the page's catalog.bin (CMakeLists.txt): LLMSIM_HOST_CLI_EXE and
# LLMSIM_HOST_CLI_DEPENDS name it with or without the pages.
option(LLMSIM_BUILD_SITE "Generate the static model pages (llmsim_site, part of ALL)" ON)
if(NOT LLMSIM_BUILD_SITE AND NOT EMSCRIPTEN)
  return()
endif()
set(LLMSIM_SITE_OUT "${CMAKE_BINARY_DIR}/site")
set(LLMSIM_SITE_STAMP "${CMAKE_BINARY_DIR}/generated/site.stamp")
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/generated")   # the stamp's folder (a given host CLI creates nothing here)
set(LLMSIM_SITE_BASE_URL "" CACHE STRING "Absolute URL the site is served from (canonical links, sitemap); empty = relative")
if(NOT EMSCRIPTEN)
  set(LLMSIM_SITE_CLI "$<TARGET_FILE:llmsim-cli>")
  set(LLMSIM_SITE_DEPENDS llmsim-cli)
elseif(LLMSIM_HOST_CLI)
  set(LLMSIM_SITE_CLI "${LLMSIM_HOST_CLI}")
  set(LLMSIM_SITE_DEPENDS "${LLMSIM_HOST_CLI}")
else()
  include(ExternalProject)
  find_program(LLMSIM_HOST_CXX NAMES c++ g++ clang++ clang++-14 NO_CMAKE_FIND_ROOT_PATH)
  find_program(LLMSIM_HOST_CC NAMES cc gcc clang clang-14 NO_CMAKE_FIND_ROOT_PATH)
  if(NOT LLMSIM_HOST_CXX OR NOT LLMSIM_HOST_CC)
    message(FATAL_ERROR "the model pages need a native C/C++ compiler for llmsim-cli (emscripten's clang-14 or g++)")
  endif()
  set(LLMSIM_HOST_ARGS -DCMAKE_BUILD_TYPE=Release -DLLMSIM_BUILD_UI=OFF -DLLMSIM_BUILD_TESTS=OFF -DLLMSIM_BUILD_SITE=OFF -DLLMSIM_HUB_CURL=OFF
      -DCMAKE_CXX_COMPILER=${LLMSIM_HOST_CXX} -DCMAKE_C_COMPILER=${LLMSIM_HOST_CC})
  if(CMAKE_CXX_COMPILER_LAUNCHER)
    list(APPEND LLMSIM_HOST_ARGS -DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  set(LLMSIM_SITE_CLI "${CMAKE_BINARY_DIR}/host/llmsim-cli")
  ExternalProject_Add(llmsim_host_cli
    SOURCE_DIR "${CMAKE_SOURCE_DIR}" BINARY_DIR "${CMAKE_BINARY_DIR}/host"
    CMAKE_ARGS ${LLMSIM_HOST_ARGS}
    BUILD_BYPRODUCTS "${LLMSIM_SITE_CLI}"
    INSTALL_COMMAND "" BUILD_ALWAYS ON)
  set(LLMSIM_SITE_DEPENDS llmsim_host_cli "${LLMSIM_SITE_CLI}")
endif()
set(LLMSIM_HOST_CLI_EXE "${LLMSIM_SITE_CLI}")
set(LLMSIM_HOST_CLI_DEPENDS ${LLMSIM_SITE_DEPENDS})
if(NOT LLMSIM_BUILD_SITE)
  return()
endif()
set(LLMSIM_SITE_ARGS site --out "${LLMSIM_SITE_OUT}")
if(LLMSIM_SITE_BASE_URL)
  list(APPEND LLMSIM_SITE_ARGS --base-url "${LLMSIM_SITE_BASE_URL}")
endif()
add_custom_command(OUTPUT "${LLMSIM_SITE_STAMP}"
  COMMAND "${LLMSIM_SITE_CLI}" ${LLMSIM_SITE_ARGS}
  COMMAND "${CMAKE_COMMAND}" -E touch "${LLMSIM_SITE_STAMP}"
  DEPENDS ${LLMSIM_SITE_DEPENDS}
  COMMENT "Generating the model pages into ${LLMSIM_SITE_OUT}" VERBATIM)
add_custom_target(llmsim_site ALL DEPENDS "${LLMSIM_SITE_STAMP}")
