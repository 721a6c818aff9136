# The bash completion (docs/gotcha.bash-completion) completes commands, each command's options
# and option values, run through bash-completion's own machinery.
comp=$(cd ../.. && pwd)/docs/gotcha.bash-completion
cd "$TEST_TMP" || exit 1 # an empty directory: PATH completion offers no file names
COMP_FILE=$comp bash -c '
. /usr/share/bash-completion/bash_completion || exit 1
. "$COMP_FILE"
complete_line() {
    COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
    _gotcha gotcha "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s: " "$*"; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "; echo
}
complete_line gotcha ba
complete_line gotcha batch --su
complete_line gotcha batch -f ""
complete_line gotcha scan --fo
complete_line gotcha scan --format js
complete_line gotcha scan --color ""
complete_line gotcha patterns --ch
complete_line gotcha pre
complete_line gotcha preflight --
complete_line gotcha preflight --format ""
complete_line gotcha record --in
complete_line gotcha collect --no
' 2>/dev/null
