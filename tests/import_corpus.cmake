# Runs `llmsim-cli import` over every file of tests/corpus/import/ (made by scripts/make_corpus.py) plus the
# cases that cannot be committed (a directory, a missing path, a file above the 4 MiB config.json limit):
#   good_*  exit 0, a summary on stdout, nothing on stderr
#   bad_*   exit 2, exactly one line on stderr, nothing on stdout
#   cmake -DCLI=build/native/llmsim-cli -DCORPUS=tests/corpus/import -DWORK=build/native/import-corpus -P tests/import_corpus.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/bad_directory.json")
string(REPEAT "0123456789abcdef" 16 line)        # 256 bytes
string(REPEAT "${line}" 4096 mib)                # 1 MiB
file(WRITE "${WORK}/bad_config_5_mib.json" "{\"model_type\": \"llama\", \"pad\": \"${mib}${mib}${mib}${mib}${mib}\"}")

file(GLOB files LIST_DIRECTORIES true "${CORPUS}/*" "${WORK}/*")
list(APPEND files "${WORK}/bad_missing_file.json")
set(n_good 0)
set(n_bad 0)
set(failures "")
foreach(f IN LISTS files)
  get_filename_component(name "${f}" NAME)
  execute_process(COMMAND "${CLI}" import "${f}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines err_lines)
  if(name MATCHES "^good_")
    math(EXPR n_good "${n_good} + 1")
    if(NOT rc EQUAL 0 OR NOT err STREQUAL "" OR NOT out MATCHES "params:")
      string(APPEND failures "  ${name}: expected exit 0 and a summary, got exit ${rc}: ${err}\n")
    endif()
  elseif(name MATCHES "^bad_")
    math(EXPR n_bad "${n_bad} + 1")
    if(NOT rc EQUAL 2 OR NOT err_lines EQUAL 1 OR NOT out STREQUAL "" OR NOT err MATCHES "\n$")
      string(APPEND failures "  ${name}: expected exit 2 and one stderr line, got exit ${rc}, ${err_lines} lines: ${err}\n")
    endif()
  else()
    string(APPEND failures "  ${name}: corpus file names start with good_ or bad_\n")
  endif()
endforeach()
message("import corpus: ${n_good} good files, ${n_bad} bad files")
if(n_good LESS 3 OR n_bad LESS 40)
  message(FATAL_ERROR "the corpus is incomplete (run scripts/make_corpus.py)")
endif()
if(failures)
  message(FATAL_ERROR "import corpus failures:\n${failures}")
endif()
