//! Plain s-expressions: how certificates write verification-condition terms, read by the
//! certificate checker (which rewrites them without egg) and by the Isabelle export.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sx {
    Atom(String),
    List(Vec<Sx>),
}

impl Sx {
    pub fn atom(s: impl Into<String>) -> Sx {
        Sx::Atom(s.into())
    }
    /// The head (operator or atom) of the term.
    pub fn head(&self) -> &str {
        match self {
            Sx::Atom(a) => a,
            Sx::List(xs) => match xs.first() {
                Some(Sx::Atom(a)) => a,
                _ => "",
            },
        }
    }
    /// The arguments of an application (empty for an atom).
    pub fn args(&self) -> &[Sx] {
        match self {
            Sx::List(xs) if !xs.is_empty() => &xs[1..],
            _ => &[],
        }
    }
    /// The subterm at a path of argument indices.
    pub fn at(&self, path: &[usize]) -> Option<&Sx> {
        match path.split_first() {
            None => Some(self),
            Some((i, rest)) => self.args().get(*i)?.at(rest),
        }
    }
    /// A copy with the subterm at `path` replaced (the subterm itself is not copied).
    pub fn replace(&self, path: &[usize], new: Sx) -> Option<Sx> {
        match path.split_first() {
            None => Some(new),
            Some((i, rest)) => match self {
                Sx::List(xs) if i + 1 < xs.len() => {
                    let mut ys = Vec::with_capacity(xs.len());
                    let mut new = Some(new);
                    for (j, x) in xs.iter().enumerate() {
                        ys.push(if j == i + 1 { x.replace(rest, new.take()?)? } else { x.clone() });
                    }
                    Some(Sx::List(ys))
                }
                _ => None,
            },
        }
    }
    /// The subterm at a path of argument indices, to change in place.
    pub fn at_mut(&mut self, path: &[usize]) -> Option<&mut Sx> {
        match path.split_first() {
            None => Some(self),
            Some((i, rest)) => match self {
                Sx::List(xs) if i + 1 < xs.len() => xs[i + 1].at_mut(rest),
                _ => None,
            },
        }
    }
    /// Number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Sx::Atom(_) => 1,
            Sx::List(xs) => 1 + xs.iter().skip(1).map(Sx::size).sum::<usize>(),
        }
    }

    pub fn parse(s: &str) -> Result<Sx, String> {
        let toks = tokenize(s);
        let mut pos = 0;
        let sx = parse_at(&toks, &mut pos)?;
        if pos != toks.len() {
            return Err(format!("trailing input after the term: `{}`", toks[pos]));
        }
        Ok(sx)
    }
}

impl fmt::Display for Sx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sx::Atom(a) => f.write_str(a),
            Sx::List(xs) => {
                f.write_str("(")?;
                for (i, x) in xs.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{x}")?;
                }
                f.write_str(")")
            }
        }
    }
}

fn tokenize(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' | ')' => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                out.push(c.to_string());
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn parse_at(toks: &[String], pos: &mut usize) -> Result<Sx, String> {
    let Some(t) = toks.get(*pos) else { return Err("the term ends too early".into()) };
    *pos += 1;
    match t.as_str() {
        "(" => {
            let mut xs = Vec::new();
            loop {
                match toks.get(*pos).map(|s| s.as_str()) {
                    Some(")") => {
                        *pos += 1;
                        return Ok(Sx::List(xs));
                    }
                    Some(_) => xs.push(parse_at(toks, pos)?),
                    None => return Err("a `(` is not closed".into()),
                }
            }
        }
        ")" => Err("unexpected `)`".into()),
        a => Ok(Sx::Atom(a.to_string())),
    }
}
