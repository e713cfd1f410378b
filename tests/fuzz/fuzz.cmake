# libFuzzer targets (clang only), included from the top-level CMakeLists.txt when LLMSIM_FUZZ=ON:
#   CC=clang CXX=clang++ cmake -S . -B build/asan -DLLMSIM_FUZZ=ON -DLLMSIM_BUILD_UI=OFF     (scripts/test.sh does)
# The top-level CMakeLists.txt compiles the whole build (engine included) with ASan + UBSan and
# -fsanitize=fuzzer-no-link when LLMSIM_FUZZ=ON; each target adds libFuzzer's main and links that engine.
# one target per tests/fuzz/fuzz_*.cpp (scripts/fuzz.sh lists them the same way)
file(GLOB LLMSIM_FUZZ_TARGET_SOURCES CONFIGURE_DEPENDS "${CMAKE_CURRENT_LIST_DIR}/fuzz_*.cpp")
set(LLMSIM_FUZZ_TARGETS)
foreach(f IN LISTS LLMSIM_FUZZ_TARGET_SOURCES)
  get_filename_component(t "${f}" NAME_WE)
  list(APPEND LLMSIM_FUZZ_TARGETS ${t})
endforeach()
foreach(t IN LISTS LLMSIM_FUZZ_TARGETS)
  add_executable(${t} "${CMAKE_CURRENT_LIST_DIR}/${t}.cpp")
  target_compile_options(${t} PRIVATE -fsanitize=fuzzer)
  target_link_options(${t} PRIVATE -fsanitize=fuzzer)
  target_link_libraries(${t} PRIVATE llmsim_engine)
endforeach()
target_sources(fuzz_url_state PRIVATE "${CMAKE_SOURCE_DIR}/ui/url_state.cpp" "${CMAKE_SOURCE_DIR}/ui/serving_stages.cpp")
target_include_directories(fuzz_url_state PRIVATE "${CMAKE_SOURCE_DIR}/ui")
# the MCP server's protocol layer and tool table live next to the CLI (cli/mcp_server.h), outside the engine
target_sources(fuzz_mcp PRIVATE "${CMAKE_SOURCE_DIR}/cli/mcp_server.cpp" "${CMAKE_SOURCE_DIR}/cli/mcp_tools.cpp")
target_include_directories(fuzz_mcp PRIVATE "${CMAKE_SOURCE_DIR}/cli")
