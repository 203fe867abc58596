//! Model ─► witness: the two threads, the params and the initial array contents the failing
//! path reads, and for a race the access thread 1 made, so the interpreter can replay it.

use crate::seq_to_vc::Encoding;
use crate::solve::Session;
use kpl_lang::Launch;
use kpl_reduction::seq::{LabelKind, Program};
use std::collections::BTreeMap;
use z3::Model;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Ids {
    pub group: [u32; 3],
    pub local: [u32; 3],
}

impl Ids {
    /// The linear index of the group (x fastest).
    pub fn group_index(&self, l: &Launch) -> u32 {
        self.group[0] + l.groups[0] * (self.group[1] + l.groups[1] * self.group[2])
    }
    /// The linear index of the thread in the whole launch (groups in order, x fastest).
    pub fn linear(&self, l: &Launch) -> u64 {
        let local = self.local[0] as u64 + l.threads[0] as u64 * (self.local[1] as u64 + l.threads[1] as u64 * self.local[2] as u64);
        self.group_index(l) as u64 * l.threads_per_group() + local
    }
}

#[derive(Clone, Debug, Default)]
pub struct Witness {
    pub threads: [Ids; 2],
    pub params: BTreeMap<String, u32>,
    /// Initial contents: array ─► (group for a shared array, index) ─► value.
    pub arrays: BTreeMap<String, BTreeMap<(Option<u32>, u32), u32>>,
    pub same_group: bool,
    /// The label's index (thread 2's access for a race, thread 1's for bounds).
    pub index: Option<u32>,
    /// For a race: thread 1's access (source span of its statement).
    pub logged: Option<(usize, usize)>,
    /// The groups the interpreter started, the others never (`kpl run --groups`), where
    /// the whole launch was too long to replay; `None`: every group.
    pub groups: Option<Vec<u32>>,
    /// The grid the witness runs under where the launch leaves some axis's size free
    /// (`Launch::free_groups`): the model's size there, the launch's elsewhere (`launch`).
    pub grid: Option<[u32; 3]>,
}

impl Witness {
    /// The fixed launch this witness runs under: `launch` with its free axes at the
    /// witness's grid.
    pub fn launch(&self, launch: &Launch) -> Launch {
        match self.grid {
            Some(g) if launch.has_free_groups() => launch.fixed_by(g),
            _ if launch.has_free_groups() => launch.least(),
            _ => *launch,
        }
    }
}

pub fn extract(s: &mut Session, m: &Model, p: &Program, enc: &Encoding, launch: &Launch, label: usize) -> Witness {
    let mut w = Witness::default();
    for (name, id) in &enc.inputs {
        let v = s.eval_word(m, *id);
        // A free grid's size.
        if let Some(a) = kpl_reduction::grid_input_axis(name) {
            w.grid.get_or_insert([1, 1, 1])[a] = v;
            continue;
        }
        // Thread ids are named `lid1.x` ... `gid2.z`; everything else is a param.
        let id_of = |prefix: &str| {
            let rest = name.strip_prefix(prefix)?;
            let t = if rest.starts_with('1') { 0 } else { 1 };
            let axis = if rest.ends_with(".y") { 1 } else if rest.ends_with(".z") { 2 } else { 0 };
            Some((t, axis))
        };
        if let Some((t, a)) = id_of("lid") {
            w.threads[t].local[a] = v;
        } else if let Some((t, a)) = id_of("gid") {
            w.threads[t].group[a] = v;
        } else {
            w.params.insert(name.clone(), v);
        }
    }
    w.same_group = w.threads[0].group == w.threads[1].group;
    let launch = &w.launch(launch);
    for n in &enc.notes {
        if !n.initial || !s.eval_bool(m, n.active) {
            continue;
        }
        let (i, v) = (s.eval_word(m, n.index), s.eval_word(m, n.value));
        let g = n.shared.then(|| w.threads[n.thread as usize - 1].group_index(launch));
        w.arrays.entry(n.array.clone()).or_default().entry((g, i)).or_insert(v);
    }
    if let Some(check) = enc.checks[label].as_ref() {
        // The place the label fails in the model (k-induction checks a label in each copy
        // of a loop body).
        let check = match check.sites.as_slice() {
            [one] => one,
            sites => sites.iter().find(|c| s.eval_bool(m, c.fail)).unwrap_or(&sites[sites.len() - 1]),
        };
        if let Some(sub) = check.subject {
            w.index = Some(s.eval_word(m, sub));
        }
        if let LabelKind::Race { array, array_index, logged, .. } = &p.labels[label].kind {
            let var = format!("{}_stmt_{array}", logged.log_prefix());
            if let Some(v) = p.find(&var) {
                let sid = s.eval_word(m, check.env[v.0 as usize]);
                // Only a site of the right array and kind (the model is free elsewhere).
                w.logged = p
                    .sites
                    .get(sid as usize)
                    .filter(|site| site.array == *array_index && site.kind == *logged)
                    .map(|site| site.span);
            }
        }
    }
    w
}
