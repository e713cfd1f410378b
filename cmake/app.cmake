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
# Each font is cut to the code points the UI rasterises (the `ranges` of load_fonts() in ui/app.cpp, read from there
# so the two cannot drift): 3 x ~250 KB -> 3 x ~30 KB, 386 KB -> 51 KB gzip on the page. ImGui's stb_truetype uses
# only the outlines and metrics, which pyftsubset keeps as they are; hinting, kerning and layout tables are dropped
# (ImGui 1.86 reads none of them). Every glyph of those ranges rasterised the same, bit for bit, before and after.
find_program(LLMSIM_PYFTSUBSET pyftsubset)
if(NOT LLMSIM_PYFTSUBSET)
  message(FATAL_ERROR "pyftsubset not found: install Debian's fonttools (scripts/setup.sh does)")
endif()
file(READ "${CMAKE_SOURCE_DIR}/ui/app.cpp" _llmsim_app_cpp)
if(NOT _llmsim_app_cpp MATCHES "ImWchar ranges\\[\\] = {([0-9a-fA-Fx, ]+), 0}")
  message(FATAL_ERROR "cmake/app.cmake: the glyph ranges of load_fonts() in ui/app.cpp were not found")
endif()
string(REGEX MATCHALL "0x[0-9a-fA-F]+" _llmsim_cps "${CMAKE_MATCH_1}")
set(LLMSIM_FONT_UNICODES "")
while(_llmsim_cps)
  list(POP_FRONT _llmsim_cps _lo _hi)
  string(REPLACE "0x" "U+" _lo "${_lo}")
  string(REPLACE "0x" "" _hi "${_hi}")
  string(APPEND LLMSIM_FONT_UNICODES ",${_lo}-${_hi}")
endwhile()
string(SUBSTRING "${LLMSIM_FONT_UNICODES}" 1 -1 LLMSIM_FONT_UNICODES)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/ui/app.cpp")
set(LLMSIM_FONT_SUBSETS)
foreach(f IN LISTS LLMSIM_FONT_FILES)
  get_filename_component(_n "${f}" NAME)
  set(_out "${CMAKE_BINARY_DIR}/generated/fonts/${_n}")
  add_custom_command(
    OUTPUT "${_out}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${CMAKE_BINARY_DIR}/generated/fonts"
    COMMAND "${LLMSIM_PYFTSUBSET}" "${f}" "--unicodes=${LLMSIM_FONT_UNICODES}" "--output-file=${_out}"
            --no-hinting --desubroutinize --layout-features= "--drop-tables+=GSUB,GPOS,GDEF,kern,DSIG,STAT"
            "--name-IDs=*"
    DEPENDS "${f}" "${CMAKE_SOURCE_DIR}/ui/app.cpp"
    COMMENT "Subsetting ${_n} to the UI's glyph ranges" VERBATIM)
  list(APPEND LLMSIM_FONT_SUBSETS "${_out}")
endforeach()
string(REPLACE ";" "," LLMSIM_FONT_FILES_ARG "${LLMSIM_FONT_SUBSETS}")
set(LLMSIM_FONTS_CPP "${CMAKE_BINARY_DIR}/generated/embedded_fonts.cpp")
add_custom_command(
  OUTPUT "${LLMSIM_FONTS_CPP}"
  COMMAND "${CMAKE_COMMAND}" "-DOUT=${LLMSIM_FONTS_CPP}" -DFUNC=embedded_font
          "-DSYMBOLS=ui,ui-bold,mono" "-DFILES=${LLMSIM_FONT_FILES_ARG}" "-DSAVE_DIR=${LLMSIM_EMBEDDED_DIR}/fonts" -P "${CMAKE_SOURCE_DIR}/cmake/embed.cmake"
  DEPENDS ${LLMSIM_FONT_SUBSETS} "${CMAKE_SOURCE_DIR}/cmake/embed.cmake"
  COMMENT "Embedding fonts (Debian fonts-inter, fonts-jetbrains-mono, subset)")

file(GLOB LLMSIM_UI_SOURCES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/ui/*.cpp")
list(FILTER LLMSIM_UI_SOURCES EXCLUDE REGEX "platform_.*\\.cpp$")
add_library(llmsim_ui STATIC ${LLMSIM_UI_SOURCES} "${LLMSIM_FONTS_CPP}")
# the panels batch with the rest of ui/ in a unity build (scripts/test.sh): a panel's file-local helpers carry its
# name (draw_spec_inputs, build_lora_explanations), so two panels in one batch never define or overload the same one
target_include_directories(llmsim_ui PUBLIC "${CMAKE_SOURCE_DIR}/ui")
target_link_libraries(llmsim_ui PUBLIC llmsim_engine imgui)

if(EMSCRIPTEN)
  add_executable(llmsim "${CMAKE_SOURCE_DIR}/ui/platform_web.cpp")
  set(LLMSIM_SITE_DIR "${CMAKE_BINARY_DIR}/site")
  set_target_properties(llmsim PROPERTIES OUTPUT_NAME llmsim SUFFIX ".js" RUNTIME_OUTPUT_DIRECTORY "${LLMSIM_SITE_DIR}")
  target_link_options(llmsim PRIVATE
    -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1
    -sEXPORT_NAME=createLlmsim -sENVIRONMENT=web
    -sFILESYSTEM=0   # the page opens no files (imports arrive as bytes): llmsim.js 226 -> 176 KB raw, 50.6 -> 37.7 KB gzip
    # no WebGL extension switched on at context creation: ImGui's ES3 backend uses none, and enabling each of the
    # browser's ~30 (getSupportedExtensions + getExtension) was most of SDL's context start (tools/bare_page does the same)
    -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0
    "-sEXPORTED_RUNTIME_METHODS=['ccall','cwrap','UTF8ToString']"
    "-sEXPORTED_FUNCTIONS=['_main','_malloc','_free']")
  target_compile_options(llmsim_ui PRIVATE -Os)
  target_compile_options(llmsim PRIVATE -Os)   # platform_web.cpp: its API entry points inlined half the engine at -O3
  target_link_options(llmsim PRIVATE -Os)
  # -Os too for the engine layers no sweep runs through (the sweeps, llmsim_bench included, run in sim and the layers
  # below it): the file readers, the workloads, the API / report glue and the evidence. Code size is what the page
  # waits for: the browser compiles every function it calls in the first frame before running it
  # catalog too: the page parses it once at start-up (load_embedded_catalog was one 56 KB function at -O3, and V8
  # compiles a hot function twice: Liftoff on its first call, TurboFan in the background while it still runs)
  # model too (architecture facts and derived counts, once per model; 2026-12-07: 24.2 -> 17.0 KB gzip of code, the
  # wasm bench's grid sweep unchanged at 0.20-0.23 us, its per-call path 0.74 -> 0.78-0.88 us, hashes unchanged)
  foreach(_layer catalog formats workloads product evidence sim model)
    if(TARGET llmsim_${_layer})
      target_compile_options(llmsim_${_layer} PRIVATE -Os)
    endif()
  endforeach()
  # the sweep's layers at -O2 (-O3's extra inlining and unrolling cost page bytes; the grid sweep of 2026-12-07 added
  # 9.4 KB gzip at -O3): memory, speed, rig, runtime. sim (the sweep's driver: evaluate_grid / evaluate_contexts, the
  # recommender) is in the -Os list above: 75 -> 24 KB raw of code, the page -16 KB gzip, the wasm bench's memory +
  # speed sweep 148 -> 158 ms under node (one run each)
  foreach(_layer memory speed rig runtime)
    if(TARGET llmsim_${_layer})
      target_compile_options(llmsim_${_layer} PRIVATE -O2)
    endif()
  endforeach()
  # ... but speed_params.bin's reader (speed_binary.cpp) runs once at start-up: -Os, out of the unity batch so the
  # option applies (at -O2 its field walks inlined into 15.6 KB raw, 2.75 KB gzip, of engine/speed code)
  if(TARGET llmsim_speed)
    set_source_files_properties("${CMAKE_SOURCE_DIR}/engine/speed/speed_binary.cpp" TARGET_DIRECTORY llmsim_speed
                                PROPERTIES COMPILE_OPTIONS -Os SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
  # serving: the SLA search runs its step and load simulation on the page (-O2: smaller than -O3 and as fast under
  # node, 0.96 vs 1.16 s CPU for llmsim_bench serving); its JSON and deployment-file writers and the prefix cache's
  # setup, report and search reasons (serve_prefix.cpp: once per run or per answer; the cache itself is
  # serve_prefix_cache.cpp) and the KV pool / engine defaults (serve_memory.cpp: once per candidate, not per step; -Os
  # from 2026-12-08, when the engines' version rules took the page over its budget) run once per answer (-Os, out of
  # the unity batch so the option applies)
  if(TARGET llmsim_serving)
    target_compile_options(llmsim_serving PRIVATE -O2)
    set(_llmsim_serving_text "${CMAKE_SOURCE_DIR}/engine/serving/serve_json.cpp" "${CMAKE_SOURCE_DIR}/engine/serving/serve_deploy.cpp"
                             "${CMAKE_SOURCE_DIR}/engine/serving/serve_prefix.cpp" "${CMAKE_SOURCE_DIR}/engine/serving/serve_memory.cpp")
    set_source_files_properties(${_llmsim_serving_text} TARGET_DIRECTORY llmsim_serving PROPERTIES
                                COMPILE_OPTIONS -Os SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
  # static page files next to the wasm
  file(GLOB LLMSIM_WEB_FILES CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/web/*")
  foreach(f IN LISTS LLMSIM_WEB_FILES)
    get_filename_component(n "${f}" NAME)
    add_custom_command(TARGET llmsim POST_BUILD
      COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${f}" "${LLMSIM_SITE_DIR}/${n}")
  endforeach()
  # the measured rows and the serving accuracy report: files next to llmsim.wasm, fetched after the first frame
  set(_llmsim_deferred_files)
  set(_llmsim_deferred_srcs)
  foreach(a IN LISTS LLMSIM_DEFERRED_ASSET_NAMES)
    list(APPEND _llmsim_deferred_files "${LLMSIM_SITE_DIR}/${a}")
    list(APPEND _llmsim_deferred_srcs "${LLMSIM_ASSETS_DIR}/${a}")
  endforeach()
  string(REPLACE ";" "," _llmsim_deferred_arg "${LLMSIM_DEFERRED_ASSET_NAMES}")
  add_custom_command(OUTPUT ${_llmsim_deferred_files}
    COMMAND "${CMAKE_COMMAND}" "-DSRC_DIR=${LLMSIM_ASSETS_DIR}" "-DDEST=${LLMSIM_SITE_DIR}" "-DNAMES=${_llmsim_deferred_arg}"
            -P "${CMAKE_SOURCE_DIR}/cmake/deferred_assets.cmake"
    DEPENDS ${_llmsim_deferred_srcs} "${CMAKE_SOURCE_DIR}/cmake/deferred_assets.cmake"
    COMMENT "The page's deferred assets (site/calibration/)" VERBATIM)
  add_custom_target(llmsim_deferred_assets DEPENDS ${_llmsim_deferred_files})
  add_dependencies(llmsim llmsim_deferred_assets)
  # the size report (scripts/web_size_report.py): each page file raw and gzip, the wasm by section, its code by
  # library (the symbol map names each function; emnm says which library defines it) and each embedded asset and
  # font as embedded. The build prints it; ctest web_size_budget runs it with cmake/web_size_budget.txt.
  # The symbol map is written next to llmsim.js and moved out of the site (it is not part of the page).
  target_link_options(llmsim PRIVATE --emit-symbol-map)
  find_program(LLMSIM_EMNM emnm)
  set(LLMSIM_SIZE_REPORT_ARGS --site "${LLMSIM_SITE_DIR}" --symbols "${CMAKE_BINARY_DIR}/llmsim.js.symbols")
  if(LLMSIM_EMNM)
    list(APPEND LLMSIM_SIZE_REPORT_ARGS --nm "${LLMSIM_EMNM}" "--lib=ui=$<TARGET_FILE:llmsim_ui>"
         "--lib=imgui=$<TARGET_FILE:imgui>" "--lib=sdl2=$<TARGET_FILE:sdl2_web>")
    foreach(_layer IN LISTS LLMSIM_ENGINE_LAYERS)
      if(TARGET llmsim_${_layer})
        list(APPEND LLMSIM_SIZE_REPORT_ARGS "--lib=engine/${_layer}=$<TARGET_FILE:llmsim_${_layer}>")
      endif()
    endforeach()
  endif()
  foreach(a IN LISTS LLMSIM_ASSET_NAMES)
    list(APPEND LLMSIM_SIZE_REPORT_ARGS "--asset=${a}=${LLMSIM_EMBEDDED_DIR}/${a}")
  endforeach()
  foreach(a IN LISTS LLMSIM_DEFERRED_ASSET_NAMES)   # counted apart from the first view
    list(APPEND LLMSIM_SIZE_REPORT_ARGS "--deferred=${a}")
  endforeach()
  foreach(a ui ui-bold mono)
    list(APPEND LLMSIM_SIZE_REPORT_ARGS "--asset=fonts/${a}=${LLMSIM_EMBEDDED_DIR}/fonts/${a}")
  endforeach()
  find_package(Python3 COMPONENTS Interpreter REQUIRED)
  add_custom_command(TARGET llmsim POST_BUILD
    COMMAND "${CMAKE_COMMAND}" -E rename "${LLMSIM_SITE_DIR}/llmsim.js.symbols" "${CMAKE_BINARY_DIR}/llmsim.js.symbols"
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_SOURCE_DIR}/scripts/web_size_report.py" ${LLMSIM_SIZE_REPORT_ARGS}
    VERBATIM)
  # the floor scripts/page_ready_bench.mjs measures the page against: Dear ImGui + SDL2 alone, the same toolchain
  # and flags, built only when the bench asks for it (EXCLUDE_FROM_ALL)
  add_executable(llmsim_bare_page EXCLUDE_FROM_ALL "${CMAKE_SOURCE_DIR}/tools/bare_page/main.cpp")
  target_link_libraries(llmsim_bare_page PRIVATE imgui)
  set_target_properties(llmsim_bare_page PROPERTIES OUTPUT_NAME bare SUFFIX ".js"
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bare")
  target_compile_options(llmsim_bare_page PRIVATE -Os)
  target_link_options(llmsim_bare_page PRIVATE -Os
    -sMIN_WEBGL_VERSION=2 -sMAX_WEBGL_VERSION=2 -sALLOW_MEMORY_GROWTH=1 -sMODULARIZE=1 -sEXPORT_NAME=createBare
    -sENVIRONMENT=web -sGL_SUPPORT_AUTOMATIC_ENABLE_EXTENSIONS=0)
  foreach(n index.html bare-page.js)
    add_custom_command(TARGET llmsim_bare_page POST_BUILD
      COMMAND "${CMAKE_COMMAND}" -E copy_if_different "${CMAKE_SOURCE_DIR}/tools/bare_page/${n}" "${CMAKE_BINARY_DIR}/bare/${n}")
  endforeach()
else()
  add_executable(llmsim "${CMAKE_SOURCE_DIR}/ui/platform_native.cpp")
  if(TARGET llmsim_hub_net)   # Hugging Face lookups on a worker thread (net/); without libcurl the row stays hidden
    target_link_libraries(llmsim PRIVATE llmsim_hub_net)
    target_compile_definitions(llmsim PRIVATE LLMSIM_HUB_NET=1)
  endif()
endif()
target_link_libraries(llmsim PRIVATE llmsim_ui)
