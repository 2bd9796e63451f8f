# Fails when a file of the portable firmware (core, protocol) includes a platform header: those
# directories must build unchanged for the AVR and the host (docs/firmware.md).
# cmake -DDIRS="dir;dir" -P check_portable.cmake
set(bad)
foreach(dir ${DIRS})
  file(GLOB files ${dir}/*.c ${dir}/*.h)
  foreach(f ${files})
    file(STRINGS ${f} hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](avr/|util/|sys/|unistd|stdio|stdlib)")
    foreach(h ${hits})
      list(APPEND bad "${f}: ${h}")
    endforeach()
  endforeach()
endforeach()
if(bad)
  string(REPLACE ";" "\n" bad "${bad}")
  message(FATAL_ERROR "platform or I/O headers in the portable firmware:\n${bad}")
endif()
message(STATUS "portable firmware: no platform headers in ${DIRS}")
