# tb_add_fuzz(NAME SOURCES src... [INSTRUMENT lib...] [LIBS lib...] [INCLUDES dir...]
#             [MAX_LEN n] [RUNS n] [SECONDS s] [DICT file] [REPLAY_MAXLEN n] [REPLAY_BYTE b])
#
# One fuzz target, registered as the ctest test NAME (label `fuzz`), fed from the committed seed
# corpus in the calling directory's corpus/.
#
# With clang the target is a libFuzzer program: the test runs it for RUNS inputs and/or SECONDS
# seconds (whichever ends first; SECONDS defaults to TB_FUZZ_SECONDS when neither is given), with
# a fixed seed; new inputs go to corpus_work/ in the build directory, never into the source tree.
# The libraries named by INSTRUMENT are compiled once more with coverage instrumentation (their
# own sources; generated ones still come from the library) so libFuzzer sees inside them.
#
# With other compilers the same target is driven by replay_main.c: every corpus file, then
# RUNS (or TB_FUZZ_MUTATIONS) pseudo-random splices and mutations with a fixed seed, stopping
# after SECONDS. REPLAY_MAXLEN bounds what it reads of a file; REPLAY_BYTE is a byte the
# mutator likes to insert (a frame's SYNC, a newline, a blank). A target whose libraries are not
# built (a module not there yet) is skipped.

set(TB_FUZZ_SECONDS 8 CACHE STRING "Seconds each fuzz target runs under ctest")
set(TB_FUZZ_MUTATIONS 200000 CACHE STRING "Mutations per fuzz test when libFuzzer is missing")
set(TB_FUZZ_DIR ${CMAKE_CURRENT_LIST_DIR})

set(TB_HAVE_LIBFUZZER OFF)
if(CMAKE_C_COMPILER_ID MATCHES "Clang")
  include(CheckCSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS -fsanitize=fuzzer)
  set(CMAKE_REQUIRED_LINK_OPTIONS -fsanitize=fuzzer)
  check_c_source_compiles("
    #include <stddef.h>
    #include <stdint.h>
    int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
    int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }"
    TB_LIBFUZZER_WORKS)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  set(TB_HAVE_LIBFUZZER ${TB_LIBFUZZER_WORKS})
endif()

set(TB_FUZZ_SANITIZERS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                       -fno-omit-frame-pointer)
# The targets and their instrumented libraries are optimised a little (-O1, as libFuzzer's own
# documentation builds them) whatever the build type: the sanitizers' checks and the asserts
# stay (NDEBUG is not set), and an execution of most targets costs a half to a third of what
# it does at -O0 (docs/testing.md, "Speed of the targets").
set(TB_FUZZ_OPTIMISE -O1)

# The coverage-instrumented copy of a library's own sources, made once for all targets.
function(tb_fuzz_coverage_objects lib)
  if(TARGET tb_fuzzcov_${lib})
    return()
  endif()
  get_target_property(srcs ${lib} SOURCES)
  get_target_property(dir ${lib} SOURCE_DIR)
  set(own)
  foreach(src ${srcs})
    if(NOT IS_ABSOLUTE ${src})
      set(src ${dir}/${src})
    endif()
    cmake_path(IS_PREFIX CMAKE_BINARY_DIR "${src}" generated)
    if(src MATCHES "\\.c$" AND NOT generated)
      list(APPEND own ${src})
    endif()
  endforeach()
  add_library(tb_fuzzcov_${lib} OBJECT ${own})
  target_compile_options(tb_fuzzcov_${lib} PRIVATE $<TARGET_PROPERTY:${lib},COMPILE_OPTIONS>
                         -fsanitize=fuzzer-no-link ${TB_FUZZ_SANITIZERS} ${TB_FUZZ_OPTIMISE})
  target_compile_definitions(tb_fuzzcov_${lib} PRIVATE
                             $<TARGET_PROPERTY:${lib},COMPILE_DEFINITIONS>)
  target_include_directories(tb_fuzzcov_${lib} PRIVATE
                             $<TARGET_PROPERTY:${lib},INCLUDE_DIRECTORIES>)
  add_dependencies(tb_fuzzcov_${lib} ${lib})
endfunction()

function(tb_add_fuzz name)
  cmake_parse_arguments(F "" "MAX_LEN;RUNS;SECONDS;DICT;REPLAY_MAXLEN;REPLAY_BYTE"
                        "SOURCES;INSTRUMENT;LIBS;INCLUDES" ${ARGN})
  foreach(lib ${F_INSTRUMENT} ${F_LIBS})
    if(NOT TARGET ${lib})
      return() # the module is not built here (yet): nothing to fuzz
    endif()
  endforeach()
  set(corpus ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
  if(NOT F_RUNS AND NOT F_SECONDS)
    set(F_SECONDS ${TB_FUZZ_SECONDS})
  endif()
  if(TB_HAVE_LIBFUZZER)
    set(objects)
    foreach(lib ${F_INSTRUMENT})
      tb_fuzz_coverage_objects(${lib})
      list(APPEND objects $<TARGET_OBJECTS:tb_fuzzcov_${lib}>)
    endforeach()
    add_executable(${name} ${F_SOURCES} ${objects})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer ${TB_FUZZ_SANITIZERS}
                           ${TB_FUZZ_OPTIMISE})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer ${TB_FUZZ_SANITIZERS})
    set(work ${CMAKE_CURRENT_BINARY_DIR}/corpus_work)
    file(MAKE_DIRECTORY ${work})
    set(args -seed=1 -timeout=10 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/)
    if(F_RUNS)
      list(APPEND args -runs=${F_RUNS})
    endif()
    if(F_SECONDS)
      list(APPEND args -max_total_time=${F_SECONDS})
    endif()
    if(F_MAX_LEN)
      list(APPEND args -max_len=${F_MAX_LEN})
    endif()
    if(F_DICT)
      list(APPEND args -dict=${CMAKE_CURRENT_SOURCE_DIR}/${F_DICT})
    endif()
    add_test(NAME ${name} COMMAND ${name} ${args} ${work} ${corpus})
  else()
    add_executable(${name} ${F_SOURCES} ${TB_FUZZ_DIR}/replay_main.c)
    if(NOT F_RUNS)
      set(F_RUNS ${TB_FUZZ_MUTATIONS})
    endif()
    if(NOT F_SECONDS)
      set(F_SECONDS 0)
    endif()
    if(F_REPLAY_MAXLEN)
      target_compile_definitions(${name} PRIVATE TB_FUZZ_MAXLEN=${F_REPLAY_MAXLEN})
    endif()
    if(F_REPLAY_BYTE)
      target_compile_definitions(${name} PRIVATE TB_FUZZ_BYTE=${F_REPLAY_BYTE})
    endif()
    add_test(NAME ${name} COMMAND ${name} ${corpus} ${F_RUNS} ${F_SECONDS})
  endif()
  target_link_libraries(${name} PRIVATE ${F_INSTRUMENT} ${F_LIBS})
  target_include_directories(${name} PRIVATE ${TB_FUZZ_DIR} ${F_INCLUDES})
  set_tests_properties(${name} PROPERTIES TIMEOUT 300 LABELS fuzz)
endfunction()
