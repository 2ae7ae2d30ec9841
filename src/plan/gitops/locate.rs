//! Where a field is in a YAML or JSON text: line and column, for error messages.
//!
//! serde_yaml_ng attaches the position of the event being read to any error raised while
//! deserializing (its `fix_mark`). So walking the document with a seed that fails exactly at
//! the wanted path yields that path's line and column, for block YAML, flow YAML and JSON alike.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

const HERE: &str = "\u{0}aksgpu-locate";

/// One step of a path: a map key or a list index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// A path such as `pools[1].vmSize`, parsed from that notation.
pub fn parse_path(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let mut rest = part;
        if let Some(i) = rest.find('[') {
            if i > 0 {
                out.push(Seg::Key(rest[..i].to_owned()));
            }
            rest = &rest[i..];
            while let Some(end) = rest.find(']') {
                if let Ok(n) = rest[1..end].parse() {
                    out.push(Seg::Index(n));
                }
                rest = &rest[end + 1..];
            }
        } else {
            out.push(Seg::Key(rest.to_owned()));
        }
    }
    out
}

struct Seek<'a>(&'a [Seg]);

impl<'de> DeserializeSeed<'de> for Seek<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        if self.0.is_empty() {
            // Fail at the value itself: the error carries its position.
            return d.deserialize_any(Fail);
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seek<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map or a list")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<(), A::Error> {
        while let Some(key) = m.next_key::<String>()? {
            if matches!(&self.0[0], Seg::Key(k) if *k == key) {
                if self.0.len() == 1 {
                    // Point at the key's value.
                    m.next_value_seed(Seek(&[]))?;
                } else {
                    m.next_value_seed(Seek(&self.0[1..]))?;
                }
            } else {
                m.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut s: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            if matches!(self.0[0], Seg::Index(n) if n == i) {
                s.next_element_seed(Seek(&self.0[1..]))?;
            } else if s.next_element::<IgnoredAny>()?.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }
}

struct Fail;

impl<'de> Visitor<'de> for Fail {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("anything")
    }
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        Err(E::custom(HERE))
    }
    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        Err(E::custom(HERE))
    }
    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        Err(E::custom(HERE))
    }
    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        Err(E::custom(HERE))
    }
    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        Err(E::custom(HERE))
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Err(E::custom(HERE))
    }
    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        Err(E::custom(HERE))
    }
    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(de::Error::custom(HERE))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<(), A::Error> {
        Err(de::Error::custom(HERE))
    }
}

/// (line, column), both from 1, of the value at `path`; the nearest existing parent when the
/// path itself is absent; `None` when not even the document can be read.
pub fn locate(text: &str, path: &[Seg]) -> Option<(usize, usize)> {
    for len in (0..=path.len()).rev() {
        let de = serde_yaml_ng::Deserializer::from_str(text);
        if let Err(e) = Seek(&path[..len]).deserialize(de) {
            if e.to_string().contains(HERE) {
                if let Some(l) = e.location() {
                    return Some((l.line(), l.column()));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "apiVersion: aksgpu/v1\npools:\n  - name: a\n    count: 1\n  - name: b\n    vmSize: X\n";

    #[test]
    fn finds_block_yaml_values() {
        assert_eq!(locate(YAML, &parse_path("pools[1].vmSize")), Some((6, 13)));
        assert_eq!(locate(YAML, &parse_path("pools[0].count")), Some((4, 12)));
        // Absent: the nearest parent (the second pool's map).
        assert_eq!(locate(YAML, &parse_path("pools[1].count")), Some((5, 5)));
    }

    #[test]
    fn finds_json_values() {
        let json = "{\n  \"pools\": [\n    {\"name\": \"a\"},\n    {\"name\": \"b\", \"count\": 7}\n  ]\n}\n";
        assert_eq!(locate(json, &parse_path("pools[1].count")), Some((4, 28)));
    }

    #[test]
    fn paths_parse() {
        assert_eq!(
            parse_path("pools[2].labels"),
            vec![Seg::Key("pools".into()), Seg::Index(2), Seg::Key("labels".into())]
        );
    }
}
