# Dear ImGui (same 1.86 sources on both targets) and SDL2 (Debian's libsdl2-dev natively; on the web, SDL's
# 2.26.5 sources compiled as an ordinary static library with SDL's own emscripten config header).
set(IMGUI_DIR "${LLMSIM_THIRD_PARTY}/imgui")
if(NOT EXISTS "${IMGUI_DIR}/imgui.h")
  message(FATAL_ERROR "Dear ImGui sources not found in ${IMGUI_DIR}: run scripts/setup.sh (apt-get source imgui)")
endif()

if(EMSCRIPTEN)
  set(SDL2_DIR_SRC "${LLMSIM_THIRD_PARTY}/SDL2")
  if(NOT EXISTS "${SDL2_DIR_SRC}/include/SDL.h")
    message(FATAL_ERROR "SDL2 sources not found in ${SDL2_DIR_SRC}: run scripts/setup.sh (apt-get source libsdl2)")
  endif()
  set(_sdl_dirs . atomic audio audio/disk audio/dummy audio/emscripten cpuinfo dynapi events file
      filesystem/emscripten haptic haptic/dummy joystick joystick/emscripten joystick/virtual loadso/dlopen
      locale locale/emscripten misc misc/emscripten power power/emscripten render render/opengles2
      render/software sensor sensor/dummy stdlib thread thread/generic timer timer/unix video video/dummy
      video/emscripten video/yuv2rgb)
  set(_sdl_sources "${SDL2_DIR_SRC}/src/hidapi/SDL_hidapi.c")
  foreach(d IN LISTS _sdl_dirs)
    file(GLOB _s "${SDL2_DIR_SRC}/src/${d}/*.c")
    list(APPEND _sdl_sources ${_s})
  endforeach()
  add_library(sdl2_web STATIC ${_sdl_sources})
  target_include_directories(sdl2_web PUBLIC "${SDL2_DIR_SRC}/include")
  # -Os like the UI: the page's code size, not SDL's speed, is what a visitor waits for (the engine keeps -O3)
  target_compile_options(sdl2_web PRIVATE -idirafter "${SDL2_DIR_SRC}/src/video/khronos" -w -Os)
  # the page opens one WebGL2 window (SDL_Init(SDL_INIT_VIDEO), ImGui's OpenGL3 backend): no audio, no SDL_Renderer,
  # no sensors; SDL.c, SDL_video.c and SDL_events.c leave those subsystems out under these switches
  target_compile_definitions(sdl2_web PRIVATE SDL_AUDIO_DISABLED=1 SDL_RENDER_DISABLED=1 SDL_SENSOR_DISABLED=1)
  set_target_properties(sdl2_web PROPERTIES UNITY_BUILD OFF)   # SDL's sources reuse file-local names
  set(LLMSIM_SDL2_TARGET sdl2_web)
else()
  find_package(SDL2 REQUIRED)
  find_package(OpenGL REQUIRED)
  if(TARGET SDL2::SDL2)
    set(LLMSIM_SDL2_TARGET SDL2::SDL2)
  else()
    add_library(sdl2_native INTERFACE)
    target_include_directories(sdl2_native INTERFACE ${SDL2_INCLUDE_DIRS})
    target_link_libraries(sdl2_native INTERFACE ${SDL2_LIBRARIES})
    set(LLMSIM_SDL2_TARGET sdl2_native)
  endif()
endif()

add_library(imgui STATIC
  "${IMGUI_DIR}/imgui.cpp" "${IMGUI_DIR}/imgui_draw.cpp" "${IMGUI_DIR}/imgui_tables.cpp"
  "${IMGUI_DIR}/imgui_widgets.cpp" "${IMGUI_DIR}/misc/cpp/imgui_stdlib.cpp"
  "${IMGUI_DIR}/backends/imgui_impl_sdl.cpp" "${IMGUI_DIR}/backends/imgui_impl_opengl3.cpp")
target_include_directories(imgui SYSTEM PUBLIC "${IMGUI_DIR}" "${IMGUI_DIR}/backends" "${IMGUI_DIR}/misc/cpp")
target_compile_definitions(imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS)
target_link_libraries(imgui PUBLIC ${LLMSIM_SDL2_TARGET})
target_compile_options(imgui PRIVATE -w)
if(EMSCRIPTEN)
  target_compile_options(imgui PRIVATE -Os)   # as sdl2_web: size over speed on the page
endif()
if(NOT EMSCRIPTEN)
  target_link_libraries(imgui PUBLIC OpenGL::GL ${CMAKE_DL_LIBS})
endif()
