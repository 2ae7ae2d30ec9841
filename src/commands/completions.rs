//! `aksgpu completions SHELL` and the dynamic completion engine (`aksgpu man` is in `man`).
//!
//! The completion scripts are clap_complete's dynamic ("env") registration: at each TAB the
//! shell runs `COMPLETE=<shell> aksgpu -- <words>`, and `complete_env` (called first thing in
//! `main`) answers from the clap definition plus the catalog. So flags and enum values complete
//! as before, and size names, model names and aliases, GPU models and regions complete from the
//! catalog in use (bundled, or `AKSGPU_CATALOG`). A normal run only reads one environment
//! variable here.

use clap::CommandFactory;
use clap_complete::env::{Bash, CompleteEnv, Elvish, EnvCompleter, Fish, Powershell, Shells, Zsh};

use crate::cli::{Cli, Shell};

/// Environment variable that turns a run into a completion request.
const VAR: &str = "COMPLETE";

/// Answer a completion request and exit, when `COMPLETE` is set; otherwise return at once.
pub fn complete_env() {
    CompleteEnv::with_factory(Cli::command).var(VAR).bin("aksgpu").completer("aksgpu").shells(SHELLS).complete();
}

/// clap_complete's shells, with bash's registration replaced by [`BashEq`].
const SHELLS: Shells<'static> = Shells(&[&BashEq, &Elvish, &Fish, &Powershell, &Zsh]);

/// Bash, completing `--flag=value` too. Bash splits words at `=` (it is in
/// `COMP_WORDBREAKS`), so clap's script would pass `--flag`, `=`, `val` as three words; this
/// one glues them back into `--flag=val` for the engine, and strips the `--flag=` the engine
/// puts before each candidate, because bash replaces only the text after the `=`.
struct BashEq;

impl EnvCompleter for BashEq {
    fn name(&self) -> &'static str {
        Bash.name()
    }

    fn is(&self, name: &str) -> bool {
        Bash.is(name)
    }

    fn write_registration(
        &self,
        var: &str,
        name: &str,
        bin: &str,
        completer: &str,
        buf: &mut dyn std::io::Write,
    ) -> Result<(), std::io::Error> {
        let script = BASH_SCRIPT
            .replace("NAME", &name.replace('-', "_"))
            .replace("BIN", bin)
            .replace("COMPLETER", completer)
            .replace("VAR", var);
        writeln!(buf, "{script}")
    }

    fn write_complete(
        &self,
        cmd: &mut clap::Command,
        args: Vec<std::ffi::OsString>,
        current_dir: Option<&std::path::Path>,
        buf: &mut dyn std::io::Write,
    ) -> Result<(), std::io::Error> {
        Bash.write_complete(cmd, args, current_dir, buf)
    }
}

/// The bash registration: clap_complete's, plus the `=` handling (see [`BashEq`]).
const BASH_SCRIPT: &str = r#"
_clap_complete_NAME() {
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
        VAR="bash" \
        "COMPLETER" -- "${words[@]}" \
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
    complete -o nospace -o bashdefault -o nosort -F _clap_complete_NAME BIN
else
    complete -o nospace -o bashdefault -F _clap_complete_NAME BIN
fi
"#;

/// The completion script for `shell`: the same text `COMPLETE=<shell> aksgpu` prints.
pub fn script(shell: Shell) -> String {
    let name = match shell {
        Shell::Bash => "bash",
        Shell::Zsh => "zsh",
        Shell::Fish => "fish",
        Shell::Powershell => "powershell",
        Shell::Elvish => "elvish",
    };
    let mut buf = Vec::new();
    if let Some(c) = SHELLS.completer(name) {
        // Writing into a Vec cannot fail.
        let _ = c.write_registration(VAR, "aksgpu", "aksgpu", "aksgpu", &mut buf);
    }
    String::from_utf8_lossy(&buf).into_owned()
}

/// File name under `completions/` for each shell.
pub fn file_name(shell: Shell) -> &'static str {
    match shell {
        Shell::Bash => "aksgpu.bash",
        Shell::Zsh => "_aksgpu",
        Shell::Fish => "aksgpu.fish",
        Shell::Powershell => "_aksgpu.ps1",
        Shell::Elvish => "aksgpu.elv",
    }
}
