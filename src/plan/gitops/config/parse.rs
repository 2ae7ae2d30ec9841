//! Parsing a `GpuConfig` file: serde's messages in the file's words, with line and column, and
//! a bound on what YAML aliases expand to.

use super::*;

/// serde's words for a value of the wrong type or range, and for unknown or missing keys, in
/// a person's: `count: invalid type: floating point `1.5`, expected u32` → `count: must be
/// a whole number, not 1.5`. The hint names the key that was meant, when one is close.
pub(super) fn serde_words(message: &str) -> (String, Option<String>) {
    let (at, rest) = match message.split_once(": ") {
        Some((at, rest)) if !at.contains(' ') => (format!("{at}: "), rest),
        _ => (String::new(), message),
    };
    let tick = |s: &str| s.split('`').nth(1).map(str::to_owned);
    if let Some(r) = rest.strip_prefix("unknown field ") {
        let (name, known) = r.split_once(", expected ").unwrap_or((r, ""));
        let name = name.trim_matches('`');
        let keys: Vec<&str> = known.split(", ").map(|k| k.trim_start_matches("one of ").trim_matches('`')).collect();
        let close = keys
            .iter()
            .map(|k| (crate::catalog::edit_distance(&name.to_ascii_lowercase(), &k.to_ascii_lowercase()), *k))
            .filter(|(d, _)| *d <= 3)
            .min();
        let hint = match close {
            Some((_, k)) => format!("did you mean {k}? (keys here: {})", keys.join(", ")),
            None => format!("keys here: {}", keys.join(", ")),
        };
        return (format!("{at}{name} is not a key here"), Some(hint));
    }
    if let Some(r) = rest.strip_prefix("missing field ") {
        return (format!("{at}{} is required", r.trim_matches('`')), None);
    }
    if let Some(r) = rest.strip_prefix("unknown variant ") {
        let (value, known) = r.split_once(", expected ").unwrap_or((r, ""));
        let known = known.trim_start_matches("one of ").replace('`', "");
        return (format!("{at}{} is not one of: {known}", value.trim_matches('`')), None);
    }
    let Some((got, expected)) = rest.split_once(", expected ") else { return (message.to_owned(), None) };
    let out_of_range = got.starts_with("invalid value: ");
    let value = match got.strip_prefix("invalid type: ").or_else(|| got.strip_prefix("invalid value: ")) {
        Some(v) if v.starts_with("string ") => v.trim_start_matches("string ").to_owned(),
        Some(v) => tick(v).unwrap_or_else(|| v.to_owned()),
        None => return (message.to_owned(), None),
    };
    let whole = |max: &str| match out_of_range {
        true => format!("must be a whole number no larger than {max}"),
        false => "must be a whole number (0 or more)".to_owned(),
    };
    let want = match expected {
        "u8" => whole("255"),
        "u16" => whole("65535"),
        "u32" => whole("4294967295"),
        "u64" | "usize" => whole("18446744073709551615"),
        "i8" | "i16" | "i32" | "i64" | "isize" => "must be a whole number".to_owned(),
        "f32" | "f64" => "must be a number".to_owned(),
        "a boolean" => "must be true or false".to_owned(),
        "a string" | "a borrowed string" | "a character" => "must be text (quote it)".to_owned(),
        "a sequence" => "must be a list".to_owned(),
        e if e.starts_with("a map") || e.starts_with("struct ") => "must be a mapping of keys to values".to_owned(),
        e => format!("must be {e}"),
    };
    (format!("{at}{want}, not {value}"), None)
}

/// Parse the file (YAML, or JSON, which YAML reads too). Unknown keys and wrong types are
/// errors with the position serde_yaml_ng reports.
pub fn parse(src: &Source<'_>) -> Result<GpuConfig, ConfigError> {
    check_expanded_size(src)?;
    let cfg: GpuConfig = serde_yaml_ng::from_str(src.text).map_err(|e| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let text = e.to_string();
        let (message, hint) = serde_words(text.split(" at line ").next().unwrap_or(&text));
        ConfigError {
            file: src.name.clone(),
            line,
            column,
            message: clip_message(&message).into(),
            hint: Some(Box::new(
                hint.unwrap_or_else(|| {
                    "see schema/gpuconfig.schema.json for every field; `aksgpu export` writes a valid file".into()
                })
                .into(),
            )),
        }
    })?;
    if cfg.api_version != API_VERSION {
        return Err(src.error(
            "apiVersion",
            format!("{:?} is not supported", cfg.api_version),
            Some(format!("use apiVersion: {API_VERSION}").into()),
        ));
    }
    if cfg.kind != KIND {
        return Err(src.error(
            "kind",
            format!("{:?} is not supported", cfg.kind),
            Some(format!("use kind: {KIND}").into()),
        ));
    }
    Ok(cfg)
}

/// The most text a file may expand to through YAML aliases (`*a` repeats what `&a` names).
pub const MAX_EXPANDED: usize = 16 << 20;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
/// A serde visitor that only adds up the lengths of what it visits (aliases expanded).
pub(super) struct Count<'a>(&'a std::cell::Cell<usize>);
impl Count<'_> {
    fn add<E: serde::de::Error>(&self, n: usize) -> Result<(), E> {
        self.0.set(self.0.get().saturating_add(n));
        if self.0.get() > MAX_EXPANDED {
            return Err(E::custom(format!(
                "the document expands to more than {} MiB through YAML aliases",
                MAX_EXPANDED >> 20
            )));
        }
        Ok(())
    }
}
impl<'de> DeserializeSeed<'de> for Count<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}
impl<'de> Visitor<'de> for Count<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.add(8)
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.add(8)
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.add(8)
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.add(8)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.add(v.len() + 8)
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.add(8)
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.add(8)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
        while s.next_element_seed(Count(self.0))?.is_some() {
            self.add(8)?;
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        while m.next_key_seed(Count(self.0))?.is_some() {
            m.next_value_seed(Count(self.0))?;
            self.add(8)?;
        }
        Ok(())
    }
}

/// Refuse a document whose aliases expand it beyond [`MAX_EXPANDED`] bytes, before anything
/// builds the expanded values: a walk that only counts lengths.
pub(super) fn check_expanded_size(src: &Source<'_>) -> Result<(), ConfigError> {
    let total = std::cell::Cell::new(0);
    let de = serde_yaml_ng::Deserializer::from_str(src.text);
    match Count(&total).deserialize(de) {
        Ok(()) => Ok(()),
        // Any other problem is reported by the typed parse, with its own position.
        Err(e) if !e.to_string().contains("through YAML aliases") => Ok(()),
        Err(e) => {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            Err(ConfigError {
                file: src.name.clone(),
                line,
                column,
                message: format!("the document expands to more than {} MiB through YAML aliases", MAX_EXPANDED >> 20)
                    .into(),
                hint: Some(Box::new("write the values out instead of repeating them through aliases".into())),
            })
        }
    }
}
