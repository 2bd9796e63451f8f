# Cross-builds build/firmware/reedboard.elf and reedboard.hex with avr-gcc, as part of the normal
# host build (no second toolchain project). avr-gcc is invoked directly, so none of the host's
# warning or sanitizer flags reach it. Exposes:
#   RB_FIRMWARE_ELF  (cache, internal)  path of the ELF (with the simavr .mmcu section)
#   RB_FIRMWARE_HEX  (cache, internal)  path of the HEX (.text and .data only)
#   reedboard_elf    target that builds both; tests depend on it
# and fails the build when flash or static RAM exceed RB_FLASH_LIMIT / RB_RAM_LIMIT.

set(RB_FIRMWARE_ELF "" CACHE INTERNAL "reedboard firmware ELF")
set(RB_FIRMWARE_HEX "" CACHE INTERNAL "reedboard firmware HEX")
if(NOT TB_FIRMWARE)
  message(STATUS "reedboard: TB_FIRMWARE is OFF, firmware not built")
  return()
endif()
find_program(RB_AVR_GCC avr-gcc)
find_program(RB_AVR_OBJCOPY avr-objcopy)
find_program(RB_AVR_SIZE avr-size)
if(NOT RB_AVR_GCC OR NOT RB_AVR_OBJCOPY OR NOT RB_AVR_SIZE)
  message(STATUS "reedboard: avr-gcc/avr-objcopy/avr-size not found, firmware not built")
  return()
endif()

# simavr's header for the .mmcu section (core name and clock inside the ELF); optional.
find_path(RB_SIMAVR_MCU_INCLUDE avr/avr_mcu_section.h PATHS /usr/include/simavr
          /usr/local/include/simavr NO_DEFAULT_PATH)

set(fw ${CMAKE_CURRENT_SOURCE_DIR})
set(elf ${CMAKE_CURRENT_BINARY_DIR}/reedboard.elf)
set(hex ${CMAKE_CURRENT_BINARY_DIR}/reedboard.hex)
set(sources ${rb_core_abs} ${fw}/protocol/rb_proto.c ${fw}/avr/rb_hal_avr.c ${fw}/avr/main.c)
set(headers ${fw}/core/rb_core.h ${fw}/core/rb_hal.h ${fw}/protocol/rb_proto.h
            ${fw}/avr/rb_pins.h ${fw}/avr/rb_avr.h)

set(flags -mmcu=atmega328p -DF_CPU=16000000UL -std=gnu11 -Os -g -Wall -Wextra -Wshadow
    -Wstrict-prototypes -Wmissing-prototypes -Wundef -ffunction-sections -fdata-sections
    -fshort-enums -I${fw}/core -I${fw}/protocol -I${fw}/avr -DRB_SETTLE_US=${RB_SETTLE_US})
if(TB_WERROR)
  list(APPEND flags -Werror)
endif()
foreach(opt ${rb_options})
  list(APPEND flags -D${opt})
endforeach()
set(link_flags -Wl,--gc-sections)
if(RB_SIMAVR_MCU_INCLUDE)
  list(APPEND flags -DRB_SIM_MMCU -idirafter ${RB_SIMAVR_MCU_INCLUDE})
  list(APPEND link_flags -Wl,--undefined=_mmcu,--section-start=.mmcu=0x910000)
endif()

add_custom_command(
  OUTPUT ${elf} ${hex}
  COMMAND ${RB_AVR_GCC} ${flags} ${link_flags} -o ${elf} ${sources}
  COMMAND ${RB_AVR_OBJCOPY} -O ihex -j .text -j .data ${elf} ${hex}
  COMMAND ${CMAKE_COMMAND} -DSIZE=${RB_AVR_SIZE} -DELF=${elf} -DFLASH_LIMIT=${RB_FLASH_LIMIT}
          -DRAM_LIMIT=${RB_RAM_LIMIT} -P ${fw}/avr/rb_size.cmake
  DEPENDS ${sources} ${headers} ${fw}/avr/rb_size.cmake
  COMMENT "Cross-building reedboard.elf (avr-gcc, ATmega328P)"
  VERBATIM)
add_custom_target(reedboard_elf ALL DEPENDS ${elf} ${hex})
set(RB_FIRMWARE_ELF ${elf} CACHE INTERNAL "reedboard firmware ELF")
set(RB_FIRMWARE_HEX ${hex} CACHE INTERNAL "reedboard firmware HEX")
# The package ships the image, so `twinboard flash` writes a board without a compiler.
include(GNUInstallDirs)
install(FILES ${hex} DESTINATION ${CMAKE_INSTALL_DATADIR}/twinboard/firmware)
