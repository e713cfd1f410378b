# The engine as layers (included from the top-level CMakeLists.txt): one static library per line of
# engine/layers.txt, bottom to top (llmsim_core, llmsim_catalog, ..., llmsim_evidence), each linking the layer
# just below it, so a layer links only the layers below. llmsim_engine (INTERFACE) is all of them: ui/, cli/ and
# tests/ link it. Sources are globbed per folder (a new file needs no edit here); LLMSIM_ENGINE_SOURCES lists them
# all (tests/fuzz/fuzz.cmake builds an instrumented copy from it). Before any layer compiles,
# scripts/check_layers.py checks every engine #include against the same table: a back-include fails the build
# with file:line and the layers that file may include.
set(LLMSIM_LAYERS_TABLE "${CMAKE_SOURCE_DIR}/engine/layers.txt")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${LLMSIM_LAYERS_TABLE}")
file(STRINGS "${LLMSIM_LAYERS_TABLE}" _llmsim_layer_lines)
set(LLMSIM_ENGINE_LAYERS)
foreach(_line IN LISTS _llmsim_layer_lines)
  string(REGEX REPLACE "#.*$" "" _line "${_line}")
  string(STRIP "${_line}" _line)
  if(_line STREQUAL "")
    continue()
  endif()
  if(NOT _line MATCHES "^([a-z_]+):(.*)$")
    message(FATAL_ERROR "engine/layers.txt: expected '<layer>: <folder> ...', got '${_line}'")
  endif()
  set(_name "${CMAKE_MATCH_1}")
  separate_arguments(_items UNIX_COMMAND "${CMAKE_MATCH_2}")
  list(APPEND LLMSIM_ENGINE_LAYERS ${_name})
  set(_llmsim_folders_${_name} ${_items})
endforeach()

# the include check, run by the build whenever an engine file or the table changes (and by ctest: engine_layers)
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND)
  file(GLOB_RECURSE _llmsim_engine_all_files CONFIGURE_DEPENDS
       "${CMAKE_SOURCE_DIR}/engine/*.h" "${CMAKE_SOURCE_DIR}/engine/*.cpp")
  set(_llmsim_layers_stamp "${CMAKE_BINARY_DIR}/engine_layers.stamp")
  add_custom_command(
    OUTPUT "${_llmsim_layers_stamp}"
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/scripts/check_layers.py" --root "${CMAKE_SOURCE_DIR}"
            --stamp "${_llmsim_layers_stamp}"
    DEPENDS ${_llmsim_engine_all_files} "${LLMSIM_LAYERS_TABLE}" "${CMAKE_SOURCE_DIR}/scripts/check_layers.py"
    COMMENT "Checking the engine's layers (engine/layers.txt)" VERBATIM)
  add_custom_target(llmsim_engine_layers_check DEPENDS "${_llmsim_layers_stamp}")
else()
  message(WARNING "python3 not found: the build does not check the engine's layers (ctest engine_layers does)")
endif()

set(LLMSIM_ENGINE_SOURCES)
set(_llmsim_below "")
list(GET LLMSIM_ENGINE_LAYERS -1 _llmsim_top)
foreach(_layer IN LISTS LLMSIM_ENGINE_LAYERS)
  set(_srcs)
  foreach(_folder IN LISTS _llmsim_folders_${_layer})
    file(GLOB_RECURSE _folder_srcs CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/engine/${_folder}/*.cpp")
    list(APPEND _srcs ${_folder_srcs})
  endforeach()
  list(APPEND LLMSIM_ENGINE_SOURCES ${_srcs})
  if(_layer STREQUAL "core")
    list(APPEND _srcs "${LLMSIM_ASSETS_CPP}")   # the embedded assets: core/assets.h declares them
  endif()
  set(_lib llmsim_${_layer})
  if(_srcs)
    add_library(${_lib} STATIC ${_srcs})
    set(_scope PUBLIC)
    if(NOT CMAKE_VERSION VERSION_LESS 3.19)   # a layer compiles without waiting for the ones below to archive
      set_target_properties(${_lib} PROPERTIES OPTIMIZE_DEPENDENCIES ON)
    endif()
  else()
    add_library(${_lib} INTERFACE)   # a layer whose folders have no .cpp (yet)
    set(_scope INTERFACE)
  endif()
  if(_llmsim_below)
    target_link_libraries(${_lib} ${_scope} ${_llmsim_below})
  else()
    target_include_directories(${_lib} ${_scope} "${CMAKE_SOURCE_DIR}/engine")   # #include "memory/memory.h"
    target_include_directories(${_lib} SYSTEM ${_scope} "${LLMSIM_HEADER_SHIM}")
    target_compile_definitions(${_lib} ${_scope} LLMSIM_VERSION="${PROJECT_VERSION}")
  endif()
  if(TARGET llmsim_engine_layers_check)
    add_dependencies(${_lib} llmsim_engine_layers_check)
  endif()
  set(_llmsim_below ${_lib})
endforeach()
add_library(llmsim_engine INTERFACE)
target_link_libraries(llmsim_engine INTERFACE llmsim_${_llmsim_top})
