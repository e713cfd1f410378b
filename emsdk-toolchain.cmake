# Toolchain for the web build: works with Debian's `emscripten` package and with a standard emsdk ($EMSDK).
#   cmake -S . -B build/web -DCMAKE_TOOLCHAIN_FILE=emsdk-toolchain.cmake -DCMAKE_BUILD_TYPE=Release
# It finds emscripten's own Platform/Emscripten.cmake and includes it, then fixes what Debian's 3.1.6 needs
# on node 20 (see README "Building by hand").
set(_llmsim_em_candidates)
if(DEFINED ENV{EMSDK})
  list(APPEND _llmsim_em_candidates "$ENV{EMSDK}/upstream/emscripten")
endif()
if(DEFINED ENV{EMSCRIPTEN})
  list(APPEND _llmsim_em_candidates "$ENV{EMSCRIPTEN}")
endif()
find_program(_llmsim_emcc emcc)
if(_llmsim_emcc)
  get_filename_component(_llmsim_emcc_real "${_llmsim_emcc}" REALPATH)
  get_filename_component(_llmsim_emcc_dir "${_llmsim_emcc_real}" DIRECTORY)
  list(APPEND _llmsim_em_candidates "${_llmsim_emcc_dir}")
endif()
list(APPEND _llmsim_em_candidates "/usr/share/emscripten")

set(_llmsim_em_platform "")
foreach(dir IN LISTS _llmsim_em_candidates)
  if(EXISTS "${dir}/cmake/Modules/Platform/Emscripten.cmake")
    set(_llmsim_em_platform "${dir}/cmake/Modules/Platform/Emscripten.cmake")
    break()
  endif()
endforeach()
if(NOT _llmsim_em_platform)
  message(FATAL_ERROR "emsdk-toolchain.cmake: emscripten not found. Install Debian's 'emscripten' package "
                      "(scripts/setup.sh does) or activate an emsdk so $EMSDK is set. Looked in: ${_llmsim_em_candidates}")
endif()
include("${_llmsim_em_platform}")

# node 20 rejects --experimental-wasm-threads (emcmake's default) and breaks 3.1.6's fetch-based wasm loading.
find_program(LLMSIM_NODE node)
if(LLMSIM_NODE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${LLMSIM_NODE};--no-experimental-fetch" CACHE STRING "" FORCE)
endif()
# Debian's emscripten needs its node modules (acorn) for optimised links.
if(EXISTS "/usr/share/nodejs/acorn")
  set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs" CACHE STRING "" FORCE)
  set(CMAKE_C_LINKER_LAUNCHER "${CMAKE_COMMAND};-E;env;NODE_PATH=/usr/share/nodejs" CACHE STRING "" FORCE)
endif()
