//! `kpl verify --format=sarif`: the JSON reports of a run as one SARIF 2.1.0 log, the
//! format GitHub code scanning, GitLab and editors read.
//!
//! One run, kpl the tool, a rule per kind of defect (`race`, `divergence`, `assertion`,
//! `out_of_bounds`). A defect is a result: level `error` when the interpreter confirmed it,
//! `warning` when it is possible only; its location is where it was found (a race's second
//! access), and a race's first access is a related location, each access's message naming
//! its thread; the witness, whether it was confirmed and the defect's details are the
//! result's properties. A file kpl could not read is a tool execution notification with its
//! errors' places, and the invocation then did not succeed.

use serde_json::{json, Map, Value};

/// The rules: kind, and what it says.
const RULES: &[(&str, &str)] = &[
    ("race", "Data race: two threads access one element, at least one writing, with nothing ordering them"),
    ("divergence", "Barrier divergence: threads of one group reach a barrier under different conditions"),
    ("assertion", "Assertion failure: an assertion, invariant or postcondition can fail"),
    ("out_of_bounds", "Out-of-bounds access: an index past the end of an array"),
];

/// A physical location: file, and the region from `line:col` to `end_line:end_col`.
fn location(file: &str, at: &Value) -> Option<Value> {
    let line = at["line"].as_u64()?;
    let col = at["col"].as_u64().unwrap_or(1).max(1);
    let mut region = json!({ "startLine": line, "startColumn": col });
    if let (Some(el), Some(ec)) = (at["end_line"].as_u64(), at["end_col"].as_u64()) {
        if (el, ec) > (line, col) {
            region["endLine"] = json!(el);
            region["endColumn"] = json!(ec);
        }
    }
    let uri = at["file"].as_str().unwrap_or(file);
    Some(json!({ "physicalLocation": { "artifactLocation": { "uri": uri }, "region": region } }))
}

/// `(3,0,0) of group (1,0,0)`.
fn thread(t: &Value) -> String {
    let ids = |v: &Value| v.as_array().map(|a| a.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(",")).unwrap_or_default();
    format!("thread ({}) of group ({})", ids(&t["local"]), ids(&t["group"]))
}

/// What a defect's result says.
fn message(d: &Value) -> String {
    let confirmed = if d["confirmed"].as_bool() == Some(true) { "confirmed" } else { "possible" };
    let index = |d: &Value| format!("{}[{}]", d["array"].as_str().unwrap_or("?"), d["index"]);
    match d["kind"].as_str().unwrap_or("") {
        "race" => format!("{confirmed} {} race on {} ({})", d["race"].as_str().unwrap_or(""), index(d), d["scope"].as_str().unwrap_or("")),
        "divergence" => format!("{confirmed} barrier divergence"),
        "out_of_bounds" => format!("{confirmed} out-of-bounds access of {} (size {})", index(d), d["size"]),
        _ => match d["what"].as_str() {
            Some(w) => format!("{confirmed} assertion failure: {w}"),
            None => format!("{confirmed} assertion failure"),
        },
    }
}

/// One defect of the report of `file` as a result.
fn result(file: &str, d: &Value) -> Value {
    let kind = d["kind"].as_str().unwrap_or("assertion");
    let rule = RULES.iter().position(|r| r.0 == kind).unwrap_or(2);
    let accesses: Vec<&Value> = d["accesses"].as_array().map(|a| a.iter().collect()).unwrap_or_default();
    // Where it was found: the last access (a race's second), or the defect's own place.
    let primary = accesses.last().copied().unwrap_or(d);
    let mut locations = Vec::new();
    if let Some(mut l) = location(file, primary) {
        if primary.get("thread").is_some() {
            l["message"] = json!({ "text": format!("{} by {}", primary["op"].as_str().unwrap_or("access"), thread(&primary["thread"])) });
        }
        locations.push(l);
    }
    let related: Vec<Value> = accesses
        .iter()
        .take(accesses.len().saturating_sub(1))
        .enumerate()
        .filter_map(|(i, a)| {
            let mut l = location(file, a)?;
            l["id"] = json!(i + 1);
            l["message"] = json!({ "text": format!("{} by {}", a["op"].as_str().unwrap_or("access"), thread(&a["thread"])) });
            Some(l)
        })
        .collect();
    let mut properties = Map::new();
    for (k, v) in d.as_object().into_iter().flatten() {
        if !matches!(k.as_str(), "line" | "col" | "end_line" | "end_col" | "file") {
            properties.insert(k.clone(), v.clone());
        }
    }
    let level = if d["confirmed"].as_bool() == Some(true) { "error" } else { "warning" };
    let mut r = json!({
        "ruleId": kind,
        "ruleIndex": rule,
        "level": level,
        "message": { "text": message(d) },
        "locations": locations,
        "properties": properties,
    });
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    r
}

/// The SARIF log of a run's JSON reports (one per file and launch).
pub fn log(reports: &[Value]) -> Value {
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    let mut artifacts: Vec<String> = Vec::new();
    for r in reports {
        let file = r["file"].as_str().unwrap_or("");
        if !file.is_empty() && !artifacts.iter().any(|a| a == file) {
            artifacts.push(file.to_string());
        }
        match r["verdict"].as_str() {
            Some("bad_input") => {
                let errors = r["errors"].as_array().cloned().unwrap_or_default();
                if errors.is_empty() {
                    notifications.push(json!({ "level": "error", "message": { "text": format!("{file}: not read") }, "locations": [ { "physicalLocation": { "artifactLocation": { "uri": file } } } ] }));
                }
                for e in errors {
                    let at = location(file, &e).unwrap_or_else(|| json!({ "physicalLocation": { "artifactLocation": { "uri": file } } }));
                    notifications.push(json!({ "level": "error", "message": { "text": e["message"].as_str().unwrap_or("bad input") }, "locations": [at] }));
                }
            }
            Some("inconclusive") => {
                let why = r["reason"].as_str().unwrap_or("could not prove or refute");
                notifications.push(json!({ "level": "warning", "message": { "text": format!("{file}: inconclusive: {why}") }, "locations": [ { "physicalLocation": { "artifactLocation": { "uri": file } } } ] }));
            }
            Some("not_launched") => {
                let kernel = r["kernel"].as_str().unwrap_or("");
                let why = r["reason"].as_str().unwrap_or("the program never launches it");
                notifications.push(json!({ "level": "note", "message": { "text": format!("{file}: `{kernel}` not verified: not launched: {why}") }, "locations": [ { "physicalLocation": { "artifactLocation": { "uri": file } } } ] }));
            }
            _ => {}
        }
        for d in r["defects"].as_array().into_iter().flatten() {
            results.push(result(file, d));
        }
    }
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, text)| json!({ "id": id, "name": id, "shortDescription": { "text": text }, "defaultConfiguration": { "level": "error" } }))
        .collect();
    let failed = reports.iter().any(|r| r["verdict"] == "bad_input");
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "kpl",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/mc-imperial/gpuverify",
                "rules": rules,
            } },
            "artifacts": artifacts.iter().map(|a| json!({ "location": { "uri": a } })).collect::<Vec<_>>(),
            "invocations": [{ "executionSuccessful": !failed, "toolExecutionNotifications": notifications }],
            "results": results,
        }],
    })
}
