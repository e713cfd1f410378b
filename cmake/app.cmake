# The ImGui app: `llmsim` natively (SDL2 + OpenGL3 window), and on the web llmsim.js + llmsim.wasm + index.html
# in ${CMAKE_BINARY_DIR}/site (SDL2 + WebGL2). Same panels on both; only ui/platform_*.cpp differ.
set(LLMSIM_FONT_FILES
  /usr/share/fonts/opentype/inter/Inter-Regular.otf
  /usr/share/fonts/opentype/inter/Inter-SemiBold.otf
  /usr/share/fonts/truetype/jetbrains-mono/JetBrainsMono-Regular.ttf)
foreach(f IN LISTS LLMSIM_FONT_FILES)
  if(NOT EXISTS "${f}")
    message(FATAL_ERROR "font ${f} not found: install fonts-inter and fonts-jetbrains-mono (scripts/setup.sh does)")
  endif()
endforeach()
string(REPLACE ";" "," LLMSIM_FONT_FILES_ARG "${LLMSIM_FONT_FILES}")
set(LLMSIM_FONTS_CPP "${CMAKE_BINARY_DIR}/generated/embedded_fonts.cpp")
add_custom_command(
  OUTPUT "${LLMSIM_FONTS_CPP}"
  COMMAND "${CMAKE_COMMAND}" "-DOUT=${LLMSIM_FONTS_CPP}" -DFUNC=embedded_font
          "-DSYMBOLS=ui,ui-bold,mono" "-DFILES=${LLMSIM_FONT_FILES_ARG}" -P "${CMAKE_SOURCE_DIR}/cmake/embed.cmake"
  DEPENDS ${LLMSIM_FONT_FILES} "${CMAKE_SOURCE_DIR}/cmake/embed.cmake"
  COMMENT "Embedding fonts (Debian fonts-inter, fonts-jetbrains-mono)")

file(GLOB LLMSIM_UI_SOURCES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/ui/*.cpp")
list(FILTER LLMSIM_UI_SOURCES EXCLUDE REGEX "platform_.*\\.cpp$")
add_library(llmsim_ui STATIC ${LLMSIM_UI_SOURCES} "${LLMSIM_FONTS_CPP}")
# one panel per file, each with its own file-local helpers (draw_inputs, build_explanations): never batched into one
# unity source (scripts/test.sh builds with CMAKE_UNITY_BUILD=ON)
set(LLMSIM_PANEL_SOURCES ${LLMSIM_UI_SOURCES})
list(FILTER LLMSIM_PANEL_SOURCES INCLUDE REGEX "/panel_[^/]*\\.cpp$")
set_source_files_properties(${LLMSIM_PANEL_SOURCES} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
target_include_directories(llmsim_ui PUBLIC "${CMAKE_SOURCE_DIR}/ui")
target_link_libraries(llmsim_ui PUBLIC llmsim_engine imgui)

if(EMSCRIPTEN)
  add_executable(llmsim "${CMAKE_SOURCE_DIR}/ui/platform_web.cpp")
  set(LLMSIM_SITE_DIR "${CMAKE_BINARY_DIR}/site")
  set_target_properties(llmsim PROPERTIES OUTPUT_NAME llmsim SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${LLMSIM_SITE_DIR}")
  target_link_options(llmsim PRIVATE
    -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1
    -sEXPORT_NAME=createLlmsim -sENVIRONMENT=web
    "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap','UTF8ToString']"
    "-sEXPORTED_FUNCTIONS=['_main','_malloc','_free']")
  target_compile_options(llmsim_ui PRIVATE -Os)
  target_link_options(llmsim PRIVATE -Os)
  # static page files next to the wasm
  file(GLOB LLMSIM_WEB_FILES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/web/*")
  foreach(f IN LISTS LLMSIM_WEB_FILES)
    get_filename_component(n "${f}" NAME)
    add_custom_command(TARGET llmsim POST_BUILD
      COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${f}" "${LLMSIM_SITE_DIR}/${n}")
  endforeach()
  add_custom_command(TARGET llmsim POST_BUILD
    COMMAND "${CMAKE_COMMAND}" "-DSITE=${LLMSIM_SITE_DIR}" -P "${CMAKE_SOURCE_DIR}/cmake/report_sizes.cmake")
else()
  add_executable(llmsim "${CMAKE_SOURCE_DIR}/ui/platform_native.cpp")
  if(TARGET llmsim_hub_net)   # Hugging Face lookups on a worker thread (net/); without libcurl the row stays hidden
    target_link_libraries(llmsim PRIVATE llmsim_hub_net)
    target_compile_definitions(llmsim PRIVATE LLMSIM_HUB_NET=1)
  endif()
endif()
target_link_libraries(llmsim PRIVATE llmsim_ui)
