//! Tables and JSON/YAML for `diff` and `apply`, through `output`.

use serde_json::json;

use crate::cli::Format;
use crate::commands::dry_run::PlanPricing;
use crate::domain::setting::Words;
use crate::error::Error;
use crate::ops::gitops::{Action, Change};
use crate::ops::gitops::{Row, RowResult};
use crate::output::{emit, Printer};
use crate::output::{table, Align, Shown};

/// "2 to create, 1 to scale, 3 unchanged, 0 refused." (plus failed and not-checked counts
/// when there are any).
pub fn summary(changes: &[Change]) -> String {
    let n = |a: Action| changes.iter().filter(|c| c.action == a).count();
    let mut out = format!(
        "{} to create, {} to scale, {} unchanged, {} refused",
        n(Action::Create),
        n(Action::Scale),
        n(Action::NoChange),
        n(Action::Refused)
    );
    for (a, word) in
        [(Action::Wait, "to wait for"), (Action::Failed, "failed in Azure"), (Action::NotChecked, "not checked")]
    {
        if n(a) > 0 {
            out.push_str(&format!(", {} {word}", n(a)));
        }
    }
    out + "."
}

/// Server text in a result (an error Azure sent) through the full redaction pass, so stdout
/// holds no more than stderr would: no signature, token or password value.
fn clean(text: &str) -> String {
    crate::output::redact_text(text)
}

/// The per-resource verdicts of `diff`.
/// `cost` prices the file's pools as they will be (after the table; `cost` in JSON and YAML).
pub fn changes(changes: &[Change], cost: &PlanPricing) -> Shown {
    let changes: Vec<Change> = changes
        .iter()
        .map(|c| Change {
            detail: clean(&c.detail),
            hint: c.hint.as_ref().map(|h| Words::plain(clean(&crate::error::flag_text(h)))),
            ..c.clone()
        })
        .collect();
    let changes = &changes[..];
    // A change's hint names settings by id: worded here (the CLI's flags), then written in.
    let mut listed = json!(changes);
    for (v, c) in listed.as_array_mut().into_iter().flatten().zip(changes) {
        if let (Some(h), Some(obj)) = (&c.hint, v.as_object_mut()) {
            obj.insert("hint".to_owned(), json!(h.text));
        }
    }
    let doc = json!({"changed": crate::ops::gitops::any_changes(changes), "changes": listed, "cost": cost});
    let rows: Vec<Vec<String>> = changes
        .iter()
        .map(|c| vec![c.kind.to_owned(), c.name.clone(), c.action.word().to_owned(), c.detail.clone()])
        .collect();
    let mut out = table(&["RESOURCE", "NAME", "ACTION", "DETAIL"], &[Align::Left; 4], &rows);
    for c in changes.iter().filter(|c| c.hint.is_some()) {
        out.push_str(&format!(
            "\n{} {}: {}",
            c.kind,
            c.name,
            c.hint.as_ref().map(|h| h.text.as_str()).unwrap_or_default()
        ));
    }
    out.push_str(&format!("\n{}\n\n{}", summary(changes), crate::commands::dry_run::plan_pricing_text(cost)));
    Shown::new(out, doc)
}

/// What `apply` did.
pub fn results(rows: &[Row], cost: &PlanPricing) -> Shown {
    let rows: Vec<Row> = rows.iter().map(|r| Row { detail: clean(&r.detail), ..r.clone() }).collect();
    let rows = &rows[..];
    let status = if rows.iter().any(|r| r.result == RowResult::Failed) {
        "failed"
    } else if rows.iter().all(|r| r.result == RowResult::Unchanged) {
        "unchanged"
    } else {
        "applied"
    };
    let doc = json!({"status": status, "resources": rows, "cost": cost});
    let t: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.kind.to_owned(),
                r.name.clone(),
                r.action.word().to_owned(),
                r.result.word().to_owned(),
                r.detail.clone(),
            ]
        })
        .collect();
    let mut out = table(&["RESOURCE", "NAME", "PLANNED", "RESULT", "DETAIL"], &[Align::Left; 5], &t);
    out.push_str(match status {
        "unchanged" => "\nNothing to change: Azure already matches the file.\n",
        "failed" => "\nSome changes were not made (see RESULT); run the same apply again to resume.\n",
        _ => "\nApplied.\n",
    });
    out.push('\n');
    out.push_str(&crate::commands::dry_run::plan_pricing_text(cost));
    Shown::new(out, doc)
}

/// What one file of `-f` prints: a result or changes, or a dry run's plan (serialized as
/// itself, so its fields keep their order).
pub enum Doc {
    Shown(Shown),
    Plan(crate::commands::dry_run::DryRun),
}

impl From<Shown> for Doc {
    fn from(s: Shown) -> Self {
        Doc::Shown(s)
    }
}

impl serde::Serialize for Doc {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Doc::Shown(d) => d.serialize(s),
            Doc::Plan(d) => d.serialize(s),
        }
    }
}

impl crate::output::Render for Doc {
    fn table(&self) -> String {
        match self {
            Doc::Shown(d) => d.table(),
            Doc::Plan(d) => d.table(),
        }
    }
}

/// One entry of a directory's document.
#[derive(serde::Serialize)]
struct FileDoc {
    file: String,
    result: Doc,
}

/// Print what each file of `-f` gave. One file: its document, as it is. A directory: with
/// `-o table` each file's table under `== NAME` as it comes; otherwise one document, an array
/// of `{"file", "result"}` in file order, so a script parses stdout once.
pub fn files(p: &Printer, format: Format, directory: bool, docs: Vec<(String, Doc)>) -> Result<(), Error> {
    use crate::output::Render;
    if !directory || format == Format::Table {
        for (_, d) in docs {
            emit(p, format, &d)?;
        }
        return Ok(());
    }
    let text = docs.iter().map(|(n, d)| format!("== {n}\n{}", d.table())).collect::<Vec<_>>().join("\n");
    let value: Vec<FileDoc> = docs.into_iter().map(|(file, result)| FileDoc { file, result }).collect();
    Ok(emit(p, format, &Shown::new(text, value))?)
}
