
_clap_complete_aksgpu() {
    local IFS=$'\013'
    local _CLAP_COMPLETE_COMP_TYPE=${COMP_TYPE}
    if compopt +o nospace 2> /dev/null; then
        local _CLAP_COMPLETE_SPACE=false
    else
        local _CLAP_COMPLETE_SPACE=true
    fi
    # Glue `--flag` `=` `value` (split by COMP_WORDBREAKS) back into `--flag=value`.
    local words=() strip="" glue=0 index=0 i n w
    for ((i = 0; i < ${#COMP_WORDS[@]}; i++)); do
        w=${COMP_WORDS[i]}
        n=${#words[@]}
        if [[ $w == "=" ]] && ((n > 0)) && [[ ${words[n-1]} == --* ]]; then
            words[n-1]+="="
            glue=1
            if ((i == COMP_CWORD)); then strip=${words[n-1]}; index=$((n - 1)); fi
            continue
        fi
        if ((i == COMP_CWORD)) && [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then w=$2; fi
        if ((glue)); then
            words[n-1]+=$w
            glue=0
            if ((i == COMP_CWORD)); then strip="${words[n-1]%%=*}="; index=$((n - 1)); fi
            continue
        fi
        words+=("$w")
        if ((i == COMP_CWORD)); then index=$n; fi
    done
    COMPREPLY=( $( \
        _CLAP_IFS="$IFS" \
        _CLAP_COMPLETE_INDEX="$index" \
        _CLAP_COMPLETE_COMP_TYPE="$_CLAP_COMPLETE_COMP_TYPE" \
        _CLAP_COMPLETE_SPACE="$_CLAP_COMPLETE_SPACE" \
        COMPLETE="bash" \
        "aksgpu" -- "${words[@]}" \
    ) )
    if [[ $? != 0 ]]; then
        unset COMPREPLY
        return
    fi
    if [[ -n $strip ]]; then
        COMPREPLY=("${COMPREPLY[@]#"$strip"}")
    fi
    if [[ $_CLAP_COMPLETE_SPACE == false ]] && [[ "${COMPREPLY-}" =~ [=/:]$ ]]; then
        compopt -o nospace
    fi
}
if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -o nospace -o bashdefault -o nosort -F _clap_complete_aksgpu aksgpu
else
    complete -o nospace -o bashdefault -F _clap_complete_aksgpu aksgpu
fi

