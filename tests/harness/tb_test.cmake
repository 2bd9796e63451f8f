# tb_add_test(NAME src... [LIBS lib...] [TIMEOUT s] [LABELS l...] [ENV VAR=value...]
#             [RESOURCE_LOCK name])
#
# Builds one test program from its sources and registers every TB_TEST(case) found at the start
# of a line of the first source as its own ctest test, named NAME.case, so each case runs in its
# own process with a timeout. Cases that share a RESOURCE_LOCK never run at the same time (the
# real-time runs of the firmware in simavr: two at once on a 2-core machine miss their timing).
# The case table is generated here, so it is const and complete.
add_library(tb_test_harness STATIC ${CMAKE_CURRENT_LIST_DIR}/tb_test.c)
target_include_directories(tb_test_harness PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_compile_definitions(tb_test_harness PRIVATE TB_SHARED_DATA_DIR="${TB_SHARED_DATA}")

# tb_run: running a command and reading a file in a test (tb_run.h). It has no main(), so a
# benchmark may link it too.
add_library(tb_run STATIC ${CMAKE_CURRENT_LIST_DIR}/tb_run.c)
target_include_directories(tb_run PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(tb_run PUBLIC tb_common)

# TB_TIME_MULTIPLIER (docs/testing.md) scales every real-time limit: the tests' own waits
# (tb_test_ms) at run time, and the ctest timeouts here, when the build is configured.
# (ctest wants whole seconds: a fraction rounds the multiplier up.)
set(TB_TIME_MULTIPLIER 1)
if(DEFINED ENV{TB_TIME_MULTIPLIER} AND NOT "$ENV{TB_TIME_MULTIPLIER}" STREQUAL "")
  if(NOT "$ENV{TB_TIME_MULTIPLIER}" MATCHES "^([0-9]+)(\\.([0-9]*))?$")
    message(FATAL_ERROR "TB_TIME_MULTIPLIER=$ENV{TB_TIME_MULTIPLIER}: give a number from 1")
  endif()
  set(TB_TIME_MULTIPLIER ${CMAKE_MATCH_1})
  if(CMAKE_MATCH_3 MATCHES "[1-9]")
    math(EXPR TB_TIME_MULTIPLIER "${TB_TIME_MULTIPLIER} + 1")
  endif()
  if(TB_TIME_MULTIPLIER LESS 1)
    set(TB_TIME_MULTIPLIER 1)
  endif()
endif()

function(tb_add_test name)
  cmake_parse_arguments(T "" "TIMEOUT;RESOURCE_LOCK" "LIBS;LABELS;ENV" ${ARGN})
  set(srcs ${T_UNPARSED_ARGUMENTS})
  list(GET srcs 0 main_src)
  get_filename_component(abs_src ${main_src} ABSOLUTE)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${abs_src})
  file(STRINGS ${abs_src} lines REGEX "^TB_TEST\\([A-Za-z0-9_]+\\)")
  set(cases)
  foreach(line ${lines})
    string(REGEX REPLACE "^TB_TEST\\(([A-Za-z0-9_]+)\\).*" "\\1" case "${line}")
    list(APPEND cases ${case})
  endforeach()
  if(NOT cases)
    message(FATAL_ERROR "${main_src}: no TB_TEST(name) cases found")
  endif()
  set(table "/* generated from ${main_src} */\n#include \"tb_test.h\"\n")
  foreach(case ${cases})
    string(APPEND table "void tb_test_case_${case}(void);\n")
  endforeach()
  string(APPEND table "const struct tb_test_case tb_test_cases[] = {\n")
  foreach(case ${cases})
    string(APPEND table "    {\"${case}\", tb_test_case_${case}},\n")
  endforeach()
  list(LENGTH cases ncases)
  string(APPEND table "};\nconst int tb_test_ncases = ${ncases};\n")
  set(table_file ${CMAKE_CURRENT_BINARY_DIR}/${name}_cases.c)
  file(CONFIGURE OUTPUT ${table_file} CONTENT "${table}")

  add_executable(${name} ${srcs} ${table_file})
  target_link_libraries(${name} PRIVATE tb_test_harness ${T_LIBS})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT ${TB_TEST_TIMEOUT})
  endif()
  math(EXPR T_TIMEOUT "${T_TIMEOUT} * ${TB_TIME_MULTIPLIER}")
  foreach(case ${cases})
    add_test(NAME ${name}.${case} COMMAND ${name} ${case})
    set_tests_properties(${name}.${case} PROPERTIES TIMEOUT ${T_TIMEOUT}
                         ENVIRONMENT "TB_SHARED_DATA=${TB_SHARED_DATA};${T_ENV}")
    if(T_LABELS)
      set_tests_properties(${name}.${case} PROPERTIES LABELS "${T_LABELS}")
    endif()
    if(T_RESOURCE_LOCK)
      set_tests_properties(${name}.${case} PROPERTIES RESOURCE_LOCK ${T_RESOURCE_LOCK})
    endif()
  endforeach()
endfunction()
