#!/usr/bin/env bash
# style_check.sh - the project's habits, checked on the built libraries and the source tree.
#
#   style_check.sh prefix  SRC ALLOW LIB=ARCHIVE=DIR...   habit 1: prefixed global symbols
#   style_check.sh macros  SRC LIB=ARCHIVE=DIR...         habit 1: prefixed public macros
#   style_check.sh pure    LIB=ARCHIVE=DIR...             pure cores: no I/O, clock or hidden state
#   style_check.sh globals ALLOW LIB=ARCHIVE=DIR...       habit 12: no writable globals
#   style_check.sh internal SRC                           habit 2: no foreign *_internal.h
#   style_check.sh sleep   SRC                            habit 8: unit tests do not sleep
#   style_check.sh format  SRC SKIP                       every .c/.h as .clang-format says
#   style_check.sh cppcheck SRC SUPPRESS                  cppcheck's warnings: none left
#   style_check.sh opsid   SRC                            no ops table compared with an instance
#   style_check.sh calls   MAX LIB=ARCHIVE=DIR            no file calls more than MAX other
#                                                         files' private functions
#   style_check.sh circle  LIMITS LIB=ARCHIVE=DIR...      no circle of calls between more than
#                                                         2 files of one module (LIMITS: "lib N")
#
# LIB=ARCHIVE=DIR names a static library, its archive and its source directory (CMake passes
# every library built outside tests/). SRC is the source tree; ALLOW and SKIP are the
# allow-lists beside this script: "lib symbol" or a path per line, '#' starts a comment.
# Each check prints one line per violation (what, which symbol, which file) and fails when
# there is any; it exits 77 (skipped) when a tool it needs is missing.
set -uo pipefail

fail=0
bad() {
    printf '%s\n' "$*"
    fail=1
}

need() {
    command -v "$1" >/dev/null 2>&1 && return 0
    printf 'style: %s not installed, check skipped\n' "$1"
    exit 77
}

# The entries of an allow-list, comments and blank lines dropped.
entries() {
    sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$1" | awk 'NF'
}

# The public headers of a library: <DIR>/<lib>.h unless named here.
public_headers() {
    local lib=$1 dir=$2
    case $lib in
    tb_common) echo "$dir/tb_err.h $dir/tb_file.h $dir/tb_str.h $dir/tb_fifo.h" ;;
    rb_proto) echo "$dir/protocol/rb_proto.h" ;;
    rb_core_host) echo "$dir/core/rb_core.h $dir/core/rb_hal.h $dir/hosttest/rb_hosttest.h" ;;
    *) echo "$dir/$lib.h" ;;
    esac
}

# The prefixes a library's global symbols may carry. The firmware (rb_core_host: core plus its
# host port) is one module whose files are named rb_<part>.
prefixes() {
    case $1 in
    tb_common) echo "tb_error_ tb_strerror tb_read_file tb_str_ tb_fifo_" ;;
    rb_core_host) echo "rb_" ;;
    *) echo "$1_" ;;
    esac
}

# The prefixes of a library's public macros: its symbol prefixes in upper case; the error
# vocabulary's constants are TB_ERR_* and TB_OK (tb_err.h), the file reader's TB_READ_FILE_*.
macro_prefixes() {
    case $1 in
    tb_common) echo "TB_ERR_ TB_OK TB_ERROR_ TB_READ_FILE_ TB_STR_ TB_FIFO_" ;;
    *) prefixes "$1" | tr '[:lower:]' '[:upper:]' ;;
    esac
}

# "member symbol" for every global symbol an archive defines.
defined_globals() {
    nm -A -g --defined-only "$1" 2>/dev/null | awk 'NF >= 3 { n = split($1, p, ":"); print p[n - 1], $NF }'
}

# Habit 1: every global carries its module's prefix; one not declared in the public header is
# internal and carries the double underscore (tb_chess__x).
check_prefix() {
    local src=$1 allow=$2
    shift 2
    need nm
    local tmp
    tmp=$(mktemp -d) || exit 2
    # shellcheck disable=SC2064
    trap "rm -rf '$tmp'" EXIT
    entries "$allow" >"$tmp/allowed"
    local spec lib archive dir hdrs h line
    for spec in "$@"; do
        IFS='=' read -r lib archive dir <<<"$spec"
        [ -f "$archive" ] || bad "$lib: $archive is not built"
        hdrs=$(public_headers "$lib" "$dir")
        : >"$tmp/words"
        for h in $hdrs; do
            if [ -f "$h" ]; then
                grep -ohE '[A-Za-z_][A-Za-z0-9_]*' "$h" >>"$tmp/words"
            else
                bad "$lib: public header ${h#"$src"/} not found"
            fi
        done
        defined_globals "$archive" >"$tmp/defined"
        while IFS= read -r line; do
            bad "$line"
        done < <(awk -v lib="$lib" -v prefixes="$(prefixes "$lib")" '
            FILENAME == ARGV[1] { if ($1 == lib) allowed[$2] = 1; next }
            FILENAME == ARGV[2] { declared[$1] = 1; next }
            {
                member = $1; sym = $2
                if (sym in allowed) { seen[sym] = 1; next }
                n = split(prefixes, p, " "); ok = 0
                for (i = 1; i <= n; i++)
                    if (index(sym, p[i]) == 1) ok = 1
                if (!ok) {
                    print lib ": " member ": " sym " has no module prefix (" prefixes ")"
                    next
                }
                if (index(sym, lib "__") == 1 || sym in declared) next
                print lib ": " member ": " sym " is not in the public header: internal names are " lib "__..."
            }
            END {
                for (s in allowed)
                    if (!(s in seen))
                        print "note: " lib " " s " is allowed but no longer defined; drop it from the allow-list" > "/dev/stderr"
            }' "$tmp/allowed" "$tmp/words" "$tmp/defined")
    done
}

# Habit 1 for macros: every #define of a public header carries the upper-case module prefix
# (TB_CHESS_...), except the header's include guard (<NAME>_H).
check_macros() {
    local src=$1
    shift
    local spec lib archive dir h guard line
    for spec in "$@"; do
        IFS='=' read -r lib archive dir <<<"$spec"
        for h in $(public_headers "$lib" "$dir"); do
            [ -f "$h" ] || continue
            guard=$(basename "$h" .h | tr '[:lower:]' '[:upper:]')_H
            while IFS= read -r line; do
                bad "$line"
            done < <(grep -nE '^[[:space:]]*#[[:space:]]*define[[:space:]]+[A-Za-z_]' "$h" |
                awk -v file="${h#"$src"/}" -v guard="$guard" \
                    -v prefixes="$(macro_prefixes "$lib")" '{
                    split($0, at, ":"); name = $0
                    sub(/^[^:]*:[[:space:]]*#[[:space:]]*define[[:space:]]+/, "", name)
                    sub(/[^A-Za-z0-9_].*$/, "", name)
                    if (name == guard) next
                    n = split(prefixes, p, " ")
                    for (i = 1; i <= n; i++)
                        if (index(name, p[i]) == 1) next
                    print file ":" at[1] ": macro " name " has no module prefix (" prefixes ")"
                }')
        done
    done
}

# Pure cores: the functions they call (undefined symbols of their objects) include no I/O, no
# clock, no sleep and no hidden state. snprintf and friends are fine; so is assert's report.
deny_calls='printf fprintf vprintf vfprintf dprintf vdprintf puts fputs fputc putc putchar
fwrite fread fgets fgetc getc getchar scanf fscanf vscanf vfscanf fopen fopen64 freopen fdopen
fclose fflush fseek ftell rewind fileno tmpfile popen pclose perror system open open64 openat
creat read write pread pwrite readv writev close lseek ioctl fcntl opendir readdir closedir stat
fstat lstat unlink remove rename mkdir socket connect accept bind listen send recv poll select
time clock_gettime gettimeofday clock sleep usleep nanosleep clock_nanosleep getenv setenv
syslog rand srand random srandom stdin stdout stderr
__printf_chk __fprintf_chk __vprintf_chk __vfprintf_chk __dprintf_chk __read_chk __fread_chk
__fgets_chk __syslog_chk'

check_pure() {
    need nm
    local spec lib archive dir line
    for spec in "$@"; do
        IFS='=' read -r lib archive dir <<<"$spec"
        [ -f "$archive" ] || bad "$lib: $archive is not built"
        while IFS= read -r line; do
            bad "$line"
        done < <(nm -A -u "$archive" 2>/dev/null | awk -v lib="$lib" -v deny="$deny_calls" '
            BEGIN { n = split(deny, d, /[ \n]+/); for (i = 1; i <= n; i++) denied[d[i]] = 1 }
            NF >= 2 {
                k = split($1, p, ":"); member = p[k - 1]
                # The firmware host port stands in for the hardware; it is not the core.
                if (member == "rb_hal_host.c.o") next
                # the shipped build fortifies (_FORTIFY_SOURCE): printf is __printf_chk there,
                # open __open_2
                call = $NF; sub(/^__/, "", call); sub(/(_chk|_2)$/, "", call)
                if ($NF in denied || ($NF ~ /^__/ && call in denied))
                    print lib ": " member " calls " call " (a pure core does no I/O)"
            }')
    done
}

# Habit 12: no writable globals (file-scope or function static) in libraries: nothing in .data,
# .bss, thread-local or common sections. Pointer tables that need relocation live in
# .data.rel.ro and are const. Sanitizer metadata (__unnamed_N, __asan_*) is the compiler's.
check_globals() {
    local allow=$1
    shift
    need objdump
    local allowed
    allowed=$(entries "$allow")
    local spec lib archive dir
    for spec in "$@"; do
        IFS='=' read -r lib archive dir <<<"$spec"
        [ -f "$archive" ] || bad "$lib: $archive is not built"
        while read -r member section sym; do
            grep -qxF "$lib $sym" <<<"$allowed" && continue
            bad "$lib: $member: $sym is a writable global (in $section); keep state in a context struct"
        done < <(objdump -t "$archive" 2>/dev/null | awk '
            / file format / { member = $1; sub(/:$/, "", member); next }
            $0 ~ / O / || $0 ~ /\*COM\*/ {
                sym = $NF
                section = ""
                for (i = 1; i < NF; i++)
                    if ($i == "O") section = $(i + 1)
                if (section ~ /^\.(rodata|data\.rel\.ro)/) next
                if (section !~ /^(\.data|\.bss|\.tdata|\.tbss|\*COM\*)/) next
                if (sym ~ /^(__unnamed_|__asan|__ubsan|___asan|\.L)/) next
                print member, section, sym
            }')
    done
}

# Habit 2: a module's private headers (every header of host/, firmware/, hardware/ and voice/ but
# the public tb_*.h and the firmware's rb_*.h: <name>_internal.h, the daemon's parts'
# daemon_*.h) are included only from their own directory, and from their own tests
# (tests/<kind>/<module directory name>/).
check_internal() {
    local src=$1
    cd "$src" || exit 2
    local f inc hdr owner ok
    while IFS=: read -r f inc; do
        hdr=$(sed -E 's/.*[<"]([^>"]*)[>"].*/\1/' <<<"$inc")
        hdr=${hdr##*/}
        case $hdr in tb_*.h | rb_*.h) continue ;; esac # public: the project's and the firmware's
        ok=0
        local found=0
        while read -r owner; do
            [ -n "$owner" ] || continue
            found=1
            owner=$(dirname "$owner")
            [ "$(dirname "$f")" = "$owner" ] && ok=1
            case $f in tests/*/"$(basename "$owner")"/*) ok=1 ;; esac
            owner=$(cut -d/ -f1-2 <<<"$owner") # the module: host/hall for host/hall/dashboard
            case $f in "$owner"/* | tests/*/"$(basename "$owner")"/*) ok=1 ;; esac
        done < <(find host firmware hardware voice -name "$hdr" 2>/dev/null)
        [ $found = 1 ] && [ $ok = 0 ] && bad "$f includes $hdr, private to another module"
    done < <(grep -rHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.h"' \
        --include='*.c' --include='*.h' host firmware hardware voice tests 2>/dev/null)
}

# Habit 8: unit tests advance injected clocks; they never wait on the real one. A file that must
# says why in a comment carrying "style: real-time wait".
check_sleep() {
    local src=$1
    cd "$src" || exit 2
    local f
    local line code
    while IFS=: read -r f line code; do
        grep -q 'style: real-time wait' "$f" && continue
        bad "$f:$line: unit tests do not sleep (inject the clock):$code"
    done < <(grep -rnE '\b(sleep|usleep|nanosleep|clock_nanosleep|thrd_sleep)[[:space:]]*\(' \
        --include='*.c' --include='*.h' tests/unit 2>/dev/null)
}

# Ops tables are asked what they do, never which they are: no comparison (== or !=) of a pointer
# with the address of a named const struct instance (`d->fx == &tb_daemon__replay`). The
# instances are the const structs defined or declared extern at file scope in host/, voice/,
# firmware/ and hardware/; the comparisons are looked for in the same sources.
check_opsid() {
    local src=$1
    cd "$src" || exit 2
    local dirs=() d
    for d in host voice firmware hardware; do
        [ -d "$d" ] && dirs+=("$d")
    done
    [ ${#dirs[@]} -gt 0 ] || exit 2
    local names
    names=$(grep -rhE '^(extern[[:space:]]+|static[[:space:]]+)?const[[:space:]]+struct[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]+[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(=|,|;)' \
        --include='*.c' --include='*.h' "${dirs[@]}" |
        sed -E 's/\{[^}]*\}//g; s/=[^,;]*//g; s/^.*const[[:space:]]+struct[[:space:]]+[A-Za-z0-9_]+//; s/[;{].*//' |
        tr ',' '\n' | grep -oE '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*' | tr -d ' \t' | sort -u |
        paste -sd'|')
    [ -n "$names" ] || return 0
    local f line code
    while IFS=: read -r f line code; do
        bad "$f:$line: an ops table compared with an instance (ask the table what it does):$code"
    done < <(grep -rnE "(==|!=)[[:space:]]*&[[:space:]]*($names)\b|&[[:space:]]*($names)[[:space:]]*(==|!=)" \
        --include='*.c' --include='*.h' "${dirs[@]}" 2>/dev/null)
}

# A module's files and the calls between them through its private functions (a symbol with the
# module's prefix and a double underscore, tb_daemon__feed): "caller callee" per line, one line
# per pair of object files, read from the library's archive.
file_calls() {
    local lib=$1 archive=$2
    nm -A "$archive" 2>/dev/null | awk -v pre="${lib}__" '
        NF >= 3 || NF == 2 {
            k = split($1, p, ":"); member = p[k - 1]; sym = $NF; type = $(NF - 1)
            if (index(sym, pre) != 1) next
            if (type == "U") used[member, sym] = 1
            else if (type ~ /^[TDRB]$/) owner[sym] = member
        }
        END {
            for (ms in used) {
                split(ms, a, SUBSEP)
                if ((a[2] in owner) && owner[a[2]] != a[1]) pair[a[1] " " owner[a[2]]] = 1
            }
            for (x in pair) print x
        }' | sort -u
}

# How many other files' private functions each file calls: at most MAX (a ratchet: the
# figure may go down, never up).
check_calls() {
    local max=$1 spec lib archive dir
    shift
    need nm
    for spec in "$@"; do
        IFS='=' read -r lib archive dir <<<"$spec"
        [ -f "$archive" ] || bad "$lib: $archive is not built"
        while IFS= read -r line; do
            bad "$line"
        done < <(file_calls "$lib" "$archive" | awk -v max="$max" -v lib="$lib" '
            { n[$1]++; to[$1] = to[$1] " " $2 }
            END {
                for (f in n) if (n[f] > max)
                    printf "%s: %s calls the private functions of %d other files (at most %d):%s\n",
                           lib, f, n[f], max, to[f]
            }' | sort)
    done
}

# Files that call each other round a circle (each reaches every other through private calls):
# no such group of more than 2 files, or of more than LIMITS names for a module that has one
# already (a ratchet as above). The groups are the strongly connected parts of the call graph,
# found by its transitive closure.
check_circle() {
    local limits=$1 spec lib archive dir max
    shift
    need nm
    for spec in "$@"; do
        IFS='=' read -r lib archive dir <<<"$spec"
        [ -f "$archive" ] || bad "$lib: $archive is not built"
        max=$(entries "$limits" | awk -v lib="$lib" '$1 == lib { print $2 }')
        max=${max:-2}
        while IFS= read -r line; do
            bad "$line"
        done < <(file_calls "$lib" "$archive" | awk -v max="$max" -v lib="$lib" '
            function id(f) { if (!(f in ix)) { ix[f] = ++n; name[n] = f } return ix[f] }
            { r[id($1), id($2)] = 1 }
            END {
                for (k = 1; k <= n; k++)
                    for (i = 1; i <= n; i++)
                        if ((i, k) in r)
                            for (j = 1; j <= n; j++)
                                if ((k, j) in r) r[i, j] = 1
                for (i = 1; i <= n; i++) {
                    if (i in done) continue
                    list = name[i]; size = 1
                    for (j = i + 1; j <= n; j++)
                        if (((i, j) in r) && ((j, i) in r)) { list = list " " name[j]; size++; done[j] = 1 }
                    if (size > max)
                        printf "%s: a circle of calls between %d files (at most %d): %s\n",
                               lib, size, max, list
                }
            }')
    done
}

# Every .c/.h under host/, firmware/, hardware/, voice/ and tests/ formatted per .clang-format,
# except the files SKIP lists.
# cppcheck (Debian's) on the program sources: its warnings (uninitialised reads, division by
# zero, leaks, an expression whose value depends on the order of its side effects ...) and
# portability findings. SUPPRESS lists the findings judged wrong, ID:FILE with a reason each.
check_cppcheck() {
    local src=$1 supp=$2
    need cppcheck
    cd "$src" || exit 2
    local dirs=() d incs=()
    for d in host voice firmware/core firmware/protocol hardware; do
        [ -d "$d" ] && dirs+=("$d")
    done
    [ ${#dirs[@]} -gt 0 ] || exit 2
    while IFS= read -r d; do
        incs+=("-I$d")
    done < <(find "${dirs[@]}" -name '*.h' -printf '%h\n' | sort -u)
    local out
    out=$(cppcheck -q -j 2 --std=c11 --enable=warning,portability --inline-suppr \
        --suppress=missingIncludeSystem --suppressions-list=<(entries "$supp") \
        --template='{file}:{line}: {severity}: {message} [{id}]' \
        -D__GNUC__ '-DTB_VERSION="0"' "${incs[@]}" "${dirs[@]}" 2>&1)
    while IFS= read -r line; do
        [ -n "$line" ] && bad "$line"
    done <<<"$out"
}

check_format() {
    local src=$1 skip=$2
    need clang-format
    cd "$src" || exit 2
    local skipped f
    skipped=$(entries "$skip")
    # Two processes of 25 files each at a time: the machine's cores are shared.
    while IFS= read -r f; do
        bad "$f: not formatted (clang-format -i $f)"
    done < <(find host firmware hardware voice tests \( -name '*.c' -o -name '*.h' \) 2>/dev/null | sort |
        grep -vxF -f <(printf '%s\n' "$skipped") |
        xargs -d '\n' -n 25 -P 2 clang-format --dry-run -Werror 2>&1 >/dev/null |
        sed -nE 's/^([^:]+):[0-9]+:[0-9]+: error: code should be clang-formatted.*/\1/p' | sort -u)
    while IFS= read -r f; do
        [ -n "$f" ] || continue
        [ -f "$f" ] || printf 'note: %s is skipped but does not exist; drop it from %s\n' \
            "$f" "${skip##*/}"
    done <<<"$skipped"
}

if [ $# -lt 1 ]; then
    sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
check=$1
shift
case $check in
prefix) check_prefix "$@" ;;
macros) check_macros "$@" ;;
pure) check_pure "$@" ;;
globals) check_globals "$@" ;;
internal) check_internal "$@" ;;
sleep) check_sleep "$@" ;;
format) check_format "$@" ;;
cppcheck) check_cppcheck "$@" ;;
opsid) check_opsid "$@" ;;
calls) check_calls "$@" ;;
circle) check_circle "$@" ;;
*)
    printf 'style: unknown check %s\n' "$check" >&2
    exit 2
    ;;
esac
exit $fail
