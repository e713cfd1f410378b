# cmake -DSRC_DIR=<assets dir> -DDEST=<site dir> -DNAMES=calibration/a.jsonl,calibration/b.json -P deferred_assets.cmake
# The web page's deferred assets (CMakeLists.txt LLMSIM_DEFERRED_ASSET_NAMES): each file copied to DEST/<name>, which
# the page fetches after its first frame (web/llmsim-page.js). A .json file is minified the way cmake/embed.cmake
# embeds it (line breaks and the indent after them dropped), so the page parses the same bytes a native build embeds.
cmake_minimum_required(VERSION 3.16)
string(REPLACE "," ";" NAMES "${NAMES}")
foreach(name IN LISTS NAMES)
  get_filename_component(dir "${DEST}/${name}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  get_filename_component(ext "${name}" EXT)
  if(ext STREQUAL ".json")
    file(READ "${SRC_DIR}/${name}" text)
    string(REGEX REPLACE "\r?\n[ \t]*" "" text "${text}")
    file(WRITE "${DEST}/${name}.tmp" "${text}")
    file(RENAME "${DEST}/${name}.tmp" "${DEST}/${name}")
  else()
    configure_file("${SRC_DIR}/${name}" "${DEST}/${name}" COPYONLY)
  endif()
endforeach()
