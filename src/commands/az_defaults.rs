//! az's defaults for `-g` and `-l`: `AZURE_DEFAULTS_GROUP` and `AZURE_DEFAULTS_LOCATION`, then
//! `group` and `location` under `[defaults]` in az's config file (`$AZURE_CONFIG_DIR/config`,
//! else `~/.azure/config`), as `az config set defaults.group=…` writes them. The file is only
//! read. Each default is applied to the clap definition before parsing, so a typed flag always
//! wins, and the note printed says where the value came from.

use std::path::PathBuf;

/// One default and where it came from (`AZURE_DEFAULTS_GROUP`, `~/.azure/config [defaults]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Default {
    pub value: String,
    pub source: String,
}

/// The defaults found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AzDefaults {
    pub group: Option<Default>,
    pub location: Option<Default>,
}

impl AzDefaults {
    /// Read them from the process environment and az's config file.
    pub fn from_env() -> Self {
        Self::read(&|k| std::env::var(k).ok())
    }

    /// Read them through `var` (tests pass their own environment).
    pub fn read(var: &dyn Fn(&str) -> Option<String>) -> Self {
        let dir = var("AZURE_CONFIG_DIR")
            .filter(|d| !d.trim().is_empty())
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".azure")));
        let file = dir.map(|d| d.join("config"));
        let text = file.as_ref().and_then(|f| std::fs::read_to_string(f).ok()).unwrap_or_default();
        let from = |env: &str, key: &str| {
            if let Some(v) = var(env).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()) {
                return Some(Default { value: v, source: env.to_owned() });
            }
            let v = ini_value(&text, "defaults", key)?;
            let path = file.as_ref().map(|f| f.display().to_string()).unwrap_or_default();
            Some(Default { value: v, source: format!("{key} in [defaults] of {path}") })
        };
        Self { group: from("AZURE_DEFAULTS_GROUP", "group"), location: from("AZURE_DEFAULTS_LOCATION", "location") }
    }

    /// The clap definition with the defaults filled in: `-g` (id `resource_group`) takes the
    /// group; single-valued `-l/--location` flags take the location, except on commands that
    /// name a cluster (its own region is read from Azure, and a default must not override
    /// it) and on lists such as `prices refresh -l`, where "no value" means every region.
    pub fn apply(&self, cmd: clap::Command) -> clap::Command {
        let cmd = cmd.mut_subcommands(|sub| self.apply(sub));
        let ids: Vec<String> = cmd.get_arguments().map(|a| a.get_id().to_string()).collect();
        let names_a_cluster = ids.iter().any(|id| id == "cluster");
        ids.into_iter().fold(cmd, |cmd, id| {
            let Some(arg) = cmd.get_arguments().find(|a| a.get_id() == id.as_str()) else { return cmd };
            let d = match id.as_str() {
                "resource_group" => self.group.as_ref(),
                _ if arg.get_long() == Some("location")
                    && !names_a_cluster
                    && !matches!(arg.get_action(), clap::ArgAction::Append) =>
                {
                    self.location.as_ref()
                }
                _ => None,
            };
            match d {
                Some(d) => {
                    // clap keeps defaults as `&'static str` (no `string` feature): one small
                    // leak per default, once per process.
                    let value: &'static str = Box::leak(d.value.clone().into_boxed_str());
                    cmd.mut_arg(id, |a| a.required(false).default_value(value))
                }
                None => cmd,
            }
        })
    }

    /// Notes for the defaults the parsed command used ("-g rg-ml (from AZURE_DEFAULTS_GROUP)").
    pub fn notes(&self, matches: &clap::ArgMatches) -> Vec<String> {
        let mut m = matches;
        while let Some((_, sub)) = m.subcommand() {
            m = sub;
        }
        let mut out = Vec::new();
        for (flag, id, d) in [
            ("-g", "resource_group", &self.group),
            ("-l", "location", &self.location),
            ("-l", "region", &self.location),
        ] {
            let used = m.try_get_raw(id).ok().flatten().is_some()
                && m.value_source(id) == Some(clap::parser::ValueSource::DefaultValue);
            if let (true, Some(d)) = (used, d) {
                out.push(format!("note: {flag} {} (from {})", d.value, d.source));
            }
        }
        out
    }
}

/// `key = value` in `[section]` of an INI file (az writes its config with Python's
/// configparser: `key = value` or `key: value`, `#`/`;` comments, case-insensitive keys).
fn ini_value(text: &str, section: &str, key: &str) -> Option<String> {
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.starts_with(';') || line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = name.trim().eq_ignore_ascii_case(section);
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once(['=', ':']) else { continue };
        if k.trim().eq_ignore_ascii_case(key) {
            return Some(v.trim().to_owned()).filter(|v| !v.is_empty());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-g` everywhere; `-l` only where no cluster's own region applies.
    #[test]
    fn defaults_reach_the_right_flags() {
        let d = AzDefaults {
            group: Some(Default { value: "rg-d".into(), source: "AZURE_DEFAULTS_GROUP".into() }),
            location: Some(Default { value: "northeurope".into(), source: "AZURE_DEFAULTS_LOCATION".into() }),
        };
        let cmd = d.apply(crate::cli::command());
        let default_of = |path: &[&str], id: &str| {
            let mut c = &cmd;
            for p in path {
                c = c.find_subcommand(p).expect(p);
            }
            let a = c.get_arguments().find(|a| a.get_id() == id).expect(id);
            a.get_default_values().first().map(|v| v.to_string_lossy().into_owned())
        };
        assert_eq!(default_of(&["pool", "scale"], "resource_group").as_deref(), Some("rg-d"));
        assert_eq!(default_of(&["recommend"], "region").as_deref(), Some("northeurope"));
        assert_eq!(default_of(&["catalog", "diff"], "location").as_deref(), Some("northeurope"));
        assert_eq!(default_of(&["create-pool"], "location"), None, "the cluster's region is read");
        assert_eq!(default_of(&["cost"], "region"), None);
        assert_eq!(default_of(&["prices", "refresh"], "region"), None, "a list: no value means every region");
    }

    #[test]
    fn ini_reads_the_defaults_section_only() {
        let text =
            "[core]\ngroup = nope\n# comment\n[defaults]\nGroup = rg-ml\nlocation: westeurope\n[x]\nlocation = no\n";
        assert_eq!(ini_value(text, "defaults", "group").as_deref(), Some("rg-ml"));
        assert_eq!(ini_value(text, "defaults", "location").as_deref(), Some("westeurope"));
        assert_eq!(ini_value(text, "core", "location"), None);
        assert_eq!(ini_value("[defaults]\ngroup =\n", "defaults", "group"), None);
    }

    #[test]
    fn environment_wins_over_the_config_file() {
        let dir = std::env::temp_dir().join(format!("aksgpu-azdefaults-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        std::fs::write(dir.join("config"), "[defaults]\ngroup = from-file\nlocation = northeurope\n").expect("write");
        let d = dir.display().to_string();
        let env = |k: &str| match k {
            "AZURE_CONFIG_DIR" => Some(d.clone()),
            "AZURE_DEFAULTS_GROUP" => Some("from-env".to_owned()),
            _ => None,
        };
        let found = AzDefaults::read(&env);
        assert_eq!(found.group, Some(Default { value: "from-env".into(), source: "AZURE_DEFAULTS_GROUP".into() }));
        let loc = found.location.expect("location from the file");
        assert_eq!(loc.value, "northeurope");
        assert!(loc.source.contains("[defaults]") && loc.source.contains("config"), "{}", loc.source);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
