#!/usr/bin/env python3
"""A line-by-line Python transliteration of the executable semantics of
isabelle-export/theories/KPL_Semantics.thy (`run_kernel`, `kexec`, `kbasic`, `kbarrier`,
`tstep`, `merge_sh`, ...), for the machines that have no Isabelle.

Usage: kexec_model.py Kernel_<name>.thy
Reads the kernel, launch and inputs terms of the theory, runs them, and checks the `run_`
lemma's statement (final arrays, or the defect's name). Prints `ok: ...` and exits 0 when
the statement holds, prints what differs and exits 1 when it does not, and exits 2 when
the theory has no such lemma (or uses float operations, uninterpreted in the theory).

This checks what `tests/isabelle.rs` cannot with a syntax checker alone: that the exported
kernel term, run by the theory's semantics (as transliterated here), gives what `kpl run`
gave. Keep it in step with KPL_Semantics.thy: each function names the one it follows."""
import re
import sys

M = 0xFFFFFFFF
sys.setrecursionlimit(100000)


# ---- Reading Isabelle terms -------------------------------------------------------------

TOKEN = re.compile(r"\s+|\\<lparr>|\\<rparr>|''(?:[^']|'(?!'))*''|\.\.<|[0-9]+|[A-Za-z_][A-Za-z0-9_']*|[()\[\],=@]")


def tokens(text):
    out, i = [], 0
    while i < len(text):
        m = TOKEN.match(text, i)
        if not m:
            raise ValueError(f"cannot read term at {text[i:i + 30]!r}")
        t = m.group(0)
        if not t.isspace():
            out.append(t)
        i = m.end()
    return out


class Parser:
    """Terms as Python values: numbers, strings, lists, tuples, records (dicts), and
    constructor applications as tuples `("C", arg, ...)` (a bare constructor is `("C",)`)."""

    def __init__(self, text):
        self.t, self.i = tokens(text), 0

    def peek(self):
        return self.t[self.i] if self.i < len(self.t) else None

    def eat(self, want=None):
        t = self.peek()
        if want is not None and t != want:
            raise ValueError(f"expected {want!r}, found {t!r}")
        self.i += 1
        return t

    def term(self):
        head = self.atom()
        if isinstance(head, tuple) and len(head) == 1 and isinstance(head[0], str) and head[0][:1].isupper():
            args = []
            while self.peek() not in (None, ")", "]", ",", "\\<rparr>", "=", "..<", "@"):
                args.append(self.atom())
            return head + tuple(args)
        # A long data list is written as short ones joined by `@`.
        while self.peek() == "@":
            self.eat()
            head = head + self.atom()
        return head

    def atom(self):
        t = self.eat()
        if t.isdigit():
            return int(t)
        if t.startswith("''"):
            return t[2:-2]
        if t == "(":
            items = [self.term()]
            while self.peek() == ",":
                self.eat()
                items.append(self.term())
            self.eat(")")
            return items[0] if len(items) == 1 else ("tuple", *items)
        if t == "[":
            if self.peek() == "]":
                self.eat()
                return []
            items = [self.term()]
            if self.peek() == "..<":
                self.eat()
                hi = self.term()
                self.eat("]")
                return list(range(items[0], hi))
            while self.peek() == ",":
                self.eat()
                items.append(self.term())
            self.eat("]")
            return items
        if t == "\\<lparr>":
            rec = {}
            while True:
                f = self.eat()
                self.eat("=")
                rec[f] = self.term()
                if self.eat() == "\\<rparr>":
                    return rec
        return (t,)


def definition(thy, name):
    m = re.search(r'definition ' + name + r' :: \w+ where\s*"' + name + r' =(.*?)"\n', thy, re.S)
    if not m:
        raise ValueError(f"no definition of {name}")
    return Parser(m.group(1)).term()


def tup(v):
    return v[1:] if isinstance(v, tuple) and v and v[0] == "tuple" else v


# ---- KPL_Ops ----------------------------------------------------------------------------

def sint(a):
    return a - (1 << 32) if a & 0x80000000 else a


def b2w(b):
    return 1 if b else 0


def tdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def udiv(a, b):
    return M if b == 0 else a // b


def urem(a, b):
    return a if b == 0 else a % b


def shl(a, b):
    return (a << b) & M if b < 32 else 0


def lshr(a, b):
    return a >> b if b < 32 else 0


def ashr(a, b):
    return (~lshr(~a & M, b)) & M if a & 0x80000000 else lshr(a, b)


def sdiv(a, b):
    if b == 0:
        return 1 if sint(a) < 0 else M
    return tdiv(sint(a), sint(b)) & M


def srem(a, b):
    return a if b == 0 else (sint(a) - tdiv(sint(a), sint(b)) * sint(b)) & M


class FloatOp(Exception):
    pass


UN = {"OLNot": lambda a: b2w(a == 0), "OBNot": lambda a: ~a & M, "ONeg": lambda a: -a & M}
BIN = {
    "OAdd": lambda a, b: (a + b) & M, "OSub": lambda a, b: (a - b) & M, "OMul": lambda a, b: (a * b) & M,
    "OUDiv": udiv, "OURem": urem, "OShl": shl, "OLShr": lshr,
    "OAnd": lambda a, b: a & b, "OOr": lambda a, b: a | b, "OXor": lambda a, b: a ^ b,
    "OEq": lambda a, b: b2w(a == b), "ONe": lambda a, b: b2w(a != b),
    "OUlt": lambda a, b: b2w(a < b), "OUle": lambda a, b: b2w(a <= b),
    "OUgt": lambda a, b: b2w(b < a), "OUge": lambda a, b: b2w(b <= a),
    "OLAnd": lambda a, b: b2w(a != 0 and b != 0), "OLOr": lambda a, b: b2w(a != 0 or b != 0),
}
BUILTIN = {
    "FSlt": lambda a, b: b2w(sint(a) < sint(b)), "FSle": lambda a, b: b2w(sint(a) <= sint(b)),
    "FSgt": lambda a, b: b2w(sint(b) < sint(a)), "FSge": lambda a, b: b2w(sint(b) <= sint(a)),
    "FSDiv": sdiv, "FSRem": srem, "FAShr": ashr, "FMin": min, "FMax": max,
    "FImplies": lambda a, b: b2w(a == 0 or b != 0),
    "FFNeg": lambda a, b: a ^ 0x80000000, "FFAbs": lambda a, b: a & 0x7FFFFFFF,
}


# ---- KPL_Semantics: expressions ------------------------------------------------------

AXIS = {"AX": 0, "AY": 1, "AZ": 2}
HAVOC_COUNT = ("Named", "havoc count")  # havoc_count


class Ctx:
    def __init__(self, kernel, launch, inputs):
        self.threads = tup(launch["l_threads"])
        self.groups = tup(launch["l_groups"])
        self.params = {}
        for p in inputs["in_params"]:
            self.params.setdefault(*tup(p))  # map_of: the first binding wins
        self.arrays = kernel["k_arrays"]
        self.havoc = {}
        for h in inputs.get("in_havoc", []):
            g, l, vs = tup(h)
            self.havoc.setdefault((tup(g), tup(l)), vs)  # map_of: the first binding wins

    def havoc_val(self, t):  # c_havoc, havoc_val
        vs = self.havoc.get((t.gid, t.lid), [])
        n = t.l.get(HAVOC_COUNT, 0)
        return vs[n] if n < len(vs) else 0

    def size_of(self, a):  # size_of
        for d in self.arrays:
            if d["a_name"] == a:
                return None if d["a_size"] == ("None",) else d["a_size"][1]
        return None

    def is_global(self, a):  # is_global
        return any(d["a_name"] == a and d["a_space"] == ("GlobalSpace",) for d in self.arrays)


class Thread:
    __slots__ = ("lid", "gid", "l", "sh", "R", "W", "A")

    def __init__(self, lid, gid, sh):
        self.lid, self.gid, self.l, self.sh, self.R, self.W, self.A = lid, gid, {}, sh, [], [], []

    def copy(self):
        t = Thread(self.lid, self.gid, self.sh)
        t.l, t.R, t.W, t.A = self.l, self.R, self.W, self.A
        return t


def eval_e(c, t, e):  # eval_e
    k = e[0]
    if k == "ELit":
        return e[1]
    if k == "EVar":
        return t.l.get(e[1], 0)
    if k == "EParam":
        return c.params.get(e[1], 0)
    if k == "ELid":
        return t.lid[AXIS[e[1][0]]]
    if k == "EGid":
        return t.gid[AXIS[e[1][0]]]
    if k == "EThreads":
        return c.threads[AXIS[e[1][0]]]
    if k == "EGroups":
        return c.groups[AXIS[e[1][0]]]
    if k == "EUn":
        return UN[e[1][0]](eval_e(c, t, e[2]))
    if k == "EBin":
        return BIN[e[1][0]](eval_e(c, t, e[2]), eval_e(c, t, e[3]))
    if k == "ECond":
        return eval_e(c, t, e[2]) if eval_e(c, t, e[1]) != 0 else eval_e(c, t, e[3])
    if k == "EBuiltin":
        f = e[1]
        if f[0] == "FFloat":
            raise FloatOp(f[1])
        return BUILTIN[f[0]](eval_e(c, t, e[2]), eval_e(c, t, e[3]))
    raise ValueError(f"unknown expression {e!r}")


def eval_p(c, m, y, e):  # eval_p: m and y are (thread, enabled)
    k = e[0]
    if k == "PE":
        return eval_e(c, m[0], e[1])
    if k == "POther":
        return eval_p(c, y, m, e[1])
    if k == "PEnabled":
        return 1 if m[1] else 0
    if k == "PPeek":
        return m[0].sh(e[1], eval_p(c, m, y, e[2]))
    if k == "PUn":
        return UN[e[1][0]](eval_p(c, m, y, e[2]))
    if k == "PBin":
        return BIN[e[1][0]](eval_p(c, m, y, e[2]), eval_p(c, m, y, e[3]))
    if k == "PCond":
        return eval_p(c, m, y, e[2]) if eval_p(c, m, y, e[1]) != 0 else eval_p(c, m, y, e[3])
    if k == "PBuiltin":
        f = e[1]
        if f[0] == "FFloat":
            raise FloatOp(f[1])
        return BUILTIN[f[0]](eval_p(c, m, y, e[2]), eval_p(c, m, y, e[3]))
    raise ValueError(f"unknown assertion expression {e!r}")


def two_thread(e):  # two_thread
    k = e[0]
    if k == "PE":
        return False
    if k in ("POther", "PEnabled"):
        return True
    return any(two_thread(x) for x in e[P_OPERANDS[k]:])


def pairs_fail(c, groups, p, w, e):  # pairs_fail; w: CkEnabled, CkEvery or CkGroup
    ts = [t for g in groups for t in g.threads]
    on = [holds(c, t, p) for t in ts]
    if w == "CkEvery":
        chk = list(range(len(ts))) if any(on) else []
    else:
        chk = [i for i in range(len(ts)) if on[i]]
    pair = w == "CkGroup" or two_thread(e)
    for i in chk:
        if pair:
            if any(j != i and (w != "CkGroup" or ts[j].gid == ts[i].gid)
                   and eval_p(c, (ts[i], on[i]), (ts[j], on[j]), e) == 0 for j in range(len(ts))):
                return True
        elif eval_p(c, (ts[i], on[i]), (ts[i], on[i]), e) == 0:
            return True
    return False


def havoc_with(c, groups, x, p):  # havoc_with, with the run's values (havoc_val)
    out = []
    for g in groups:
        ts = []
        for t in g.threads:
            if holds(c, t, p):
                v = c.havoc_val(t)
                t = t.copy()
                t.l = dict(t.l)
                t.l[x] = v
                t.l[HAVOC_COUNT] = (t.l.get(HAVOC_COUNT, 0) + 1) & 0xFFFFFFFF
            ts.append(t)
        n = Group(ts)
        n.R, n.W, n.A, n.S = g.R, g.W, g.A, g.S
        out.append(n)
    return out


def in_mask(m, j):  # in_mask
    return j < 32 and (m >> j) & 1 == 1


def shuffle_source(f, lane, d, width):  # shuffle_source
    w = 32 if width == 0 or width > 32 else width
    pos = lane % w
    seg = lane - pos
    if f == "WShfl":
        return seg + d % w
    if f == "WShflUp":
        return lane - d if d <= pos else lane
    if f == "WShflDown":
        return lane + d if d < w - pos else lane
    if f == "WShflXor":
        return lane ^ d if (lane ^ d) < seg + w else lane
    return lane


REDUCTION = {  # reduction
    "WRAdd": (0, lambda a, b: (a + b) & 0xFFFFFFFF), "WRMin": (0xFFFFFFFF, min), "WRMax": (0, max),
    "WRSmin": (0x7FFFFFFF, lambda a, b: b if sint(b) < sint(a) else a),
    "WRSmax": (0x80000000, lambda a, b: b if sint(a) < sint(b) else a),
    "WRAnd": (0xFFFFFFFF, lambda a, b: a & b), "WROr": (0, lambda a, b: a | b), "WRXor": (0, lambda a, b: a ^ b),
}


def gwarp(c, g, f, args, ex, p):  # gwarp: each thread's result, or None (divergence)
    ts = g.threads
    n = len(ts)
    on = [holds(c, t, p) for t in ts]
    arg = [[eval_e(c, t, a) if on[i] else 0 for a in args] for i, t in enumerate(ts)]
    gone = [ex != ("None",) and eval_e(c, t, ex[1]) != 0 for t in ts]
    run = lambda i: i < n and on[i]
    for i in range(n):
        if not on[i] or f == "WActive":
            continue
        base, m = i - i % 32, arg[i][0]
        for j in range(32):
            if in_mask(m, j) and base + j < n:
                if (arg[base + j][0] != m) if on[base + j] else not gone[base + j]:
                    return None
    out = []
    for i in range(n):
        if not on[i]:
            out.append(0)
            continue
        lane = i % 32
        base = i - lane
        m = arg[i][0] if args else 0
        votes = lambda P: sum(1 << j for j in range(32) if run(base + j) and P(j))
        named = votes(lambda j: in_mask(m, j))
        if f == "WActive":
            v = votes(lambda j: True)
        elif f == "WMatchAny":
            v = votes(lambda j: in_mask(m, j) and arg[base + j][1] == arg[i][1])
        elif f == "WMatchAll":
            v = m if votes(lambda j: in_mask(m, j) and arg[base + j][1] == arg[i][1]) == named else 0
        elif f == "WSync":
            v = 0
        elif f in ("WBallot", "WAny", "WAll"):
            yes = votes(lambda j: in_mask(m, j) and arg[base + j][1] != 0)
            v = yes if f == "WBallot" else int(yes != 0) if f == "WAny" else int(yes == named)
        elif f in ("WShfl", "WShflUp", "WShflDown", "WShflXor"):
            src = shuffle_source(f, lane, arg[i][2], arg[i][3])
            v = arg[base + src][1] if run(base + src) else 0
        else:
            acc, step = REDUCTION[f]
            for j in range(32):
                if in_mask(m, j) and run(base + j):
                    acc = step(acc, arg[base + j][1])
            v = acc
        out.append(v)
    return out


def kwarp(c, groups, s, p):  # kwarp
    f, d, args, ex = s[1][0], s[2], s[3], s[4]
    rs = [gwarp(c, g, f, args, ex, p) for g in groups]
    if any(r is None for r in rs):
        raise Abort("divergence")
    if f == "WSync":
        groups = [warp_sync_g(c, g, p) for g in groups]
    out = []
    for g, r in zip(groups, rs):
        ts = []
        for t, v in zip(g.threads, r):
            if d[0] == "Some" and holds(c, t, p):
                t = t.copy()
                t.l = dict(t.l)
                t.l[d[1]] = v
            ts.append(t)
        n = Group(ts)
        n.R, n.W, n.A, n.S = g.R, g.W, g.A, g.S
        out.append(n)
    return out


def holds(c, t, p):  # holds
    return eval_e(c, t, p) != 0


def pand(p, v):
    return ("EBin", ("OLAnd",), p, ("EVar", v))


def pand_not(p, v):
    return ("EBin", ("OLAnd",), p, ("EUn", ("OLNot",), ("EVar", v)))


def out_of_bounds(c, t, b, p):  # out_of_bounds
    if not holds(c, t, p) or b[0] == "BAssign":
        return False
    a, idx = (b[2], b[3]) if b[0] == "BRead" else (b[1], b[2])
    n = c.size_of(a)
    return n is not None and n <= eval_e(c, t, idx)


# ---- Substitution and belim/celim/relim ------------------------------------------------

def subst_e(x, v, e):  # subst_e
    k = e[0]
    if k == "EVar":
        return ("EVar", v) if e[1] == ("Named", x) else e
    if k == "EUn":
        return (k, e[1], subst_e(x, v, e[2]))
    if k in ("EBin", "EBuiltin"):
        return (k, e[1], subst_e(x, v, e[2]), subst_e(x, v, e[3]))
    if k == "ECond":
        return (k, subst_e(x, v, e[1]), subst_e(x, v, e[2]), subst_e(x, v, e[3]))
    return e


def subst_l(x, v, w):
    return v if w == ("Named", x) else w


def subst_b(x, v, b):  # subst_b
    if b[0] == "BAssign":
        return ("BAssign", subst_l(x, v, b[1]), subst_e(x, v, b[2]))
    if b[0] == "BRead":
        return ("BRead", subst_l(x, v, b[1]), b[2], subst_e(x, v, b[3]))
    return ("BWrite", b[1], subst_e(x, v, b[2]), subst_e(x, v, b[3]))


def subst_p(x, v, e):  # subst_p
    k = e[0]
    if k == "PE":
        return (k, subst_e(x, v, e[1]))
    if k == "PEnabled":
        return e
    head = P_OPERANDS.get(k)
    if head is None:
        raise ValueError(f"unknown assertion expression {e!r}")
    return e[:head] + tuple(subst_p(x, v, a) for a in e[head:])


# Where a pexpr constructor's pexpr operands start (after its name and non-pexpr fields).
P_OPERANDS = {"POther": 1, "PPeek": 2, "PUn": 2, "PBin": 2, "PCond": 1, "PBuiltin": 2}


def subst_s(x, v, s):  # subst_s
    k = s[0]
    if k == "SBasic":
        return (k, subst_b(x, v, s[1]))
    if k == "SSeq":
        return (k, subst_s(x, v, s[1]), subst_s(x, v, s[2]))
    if k == "SLocal":
        return s if s[1] == x else (k, s[1], subst_s(x, v, s[2]))
    if k == "SIf":
        return (k, subst_e(x, v, s[1]), subst_s(x, v, s[2]), subst_s(x, v, s[3]))
    if k in ("SWhile", "SWhileU"):
        return (k, subst_e(x, v, s[1]), [subst_p(x, v, i) for i in s[2]], subst_s(x, v, s[3]))
    if k == "SCall":
        return (k, s[1], [subst_e(x, v, a) for a in s[2]])
    if k in ("SAssert", "SAssume"):
        return (k, subst_e(x, v, s[1]))
    if k == "SHavoc":
        return (k, subst_l(x, v, s[1]))
    if k == "SWarp":
        d = ("Some", subst_l(x, v, s[2][1])) if s[2][0] == "Some" else s[2]
        ex = ("Some", subst_e(x, v, s[4][1])) if s[4][0] == "Some" else s[4]
        return (k, s[1], d, [subst_e(x, v, a) for a in s[3]], ex)
    if k == "SAssertP":
        return (k, s[1], subst_p(x, v, s[2]))
    if k == "SAssumeP":
        return (k, subst_p(x, v, s[1]))
    if k == "SEvery":
        return (k, subst_s(x, v, s[1]))
    if k == "SBarrierEach":
        return (k, subst_e(x, v, s[1]), subst_e(x, v, s[2]))
    if k == "SAtomic":
        d = ("Some", subst_l(x, v, s[1][1])) if s[1][0] == "Some" else s[1]
        return (k, d, s[2], s[3], subst_e(x, v, s[4]), [subst_e(x, v, a) for a in s[5]])
    if k == "SAtomicShaped":
        d, dh = (("Some", subst_l(x, v, y[1])) if y[0] == "Some" else y for y in (s[3], s[4]))
        return (k, s[1], s[2], d, dh, s[5], s[6], subst_e(x, v, s[7]), [subst_e(x, v, a) for a in s[8]])
    return s


def subst_all(xs, vs, s):  # subst_all
    for x, v in zip(xs, vs):
        s = subst_s(x, v, s)
    return s


def elim(target, v, s, into_loops):  # belim, celim (into_loops = False), relim (True)
    k = s[0]
    if k == target:
        return ("SBasic", ("BAssign", v, ("ELit", 1)))
    if k == "SSeq":
        return (k, elim(target, v, s[1], into_loops), elim(target, v, s[2], into_loops))
    if k == "SLocal":
        return (k, s[1], elim(target, v, s[2], into_loops))
    if k == "SIf":
        return (k, s[1], elim(target, v, s[2], into_loops), elim(target, v, s[3], into_loops))
    if into_loops and k in ("SWhile", "SWhileU"):
        return (k, s[1], s[2], elim(target, v, s[3], into_loops))
    return s


def seq_all(ts, s):  # seq_all
    for t in reversed(ts):
        s = ("SSeq", t, s)
    return s


# ---- Groups and the kernel ---------------------------------------------------------------

class Group:
    __slots__ = ("threads", "R", "W", "A", "S")

    def __init__(self, threads):
        self.threads, self.R, self.W, self.A = threads, set(), set(), set()
        self.S = ([], [], [])  # g_SR, g_SW, g_SA: (address, thread) a warp barrier ordered


def tstep(c, t, b, p):  # tstep
    if not holds(c, t, p):
        return t
    t = t.copy()
    if b[0] == "BAssign":
        t.l = dict(t.l)
        t.l[b[1]] = eval_e(c, t, b[2])
    elif b[0] == "BRead":
        z = eval_e(c, t, b[3])
        t.l = dict(t.l)
        t.l[b[1]] = t.sh(b[2], z)
        t.R = [(b[2], z)] + t.R
    else:
        z, val, old = eval_e(c, t, b[2]), eval_e(c, t, b[3]), t.sh
        a = b[1]
        t.sh = lambda A, i, old=old: val if (A, i) == (a, z) else old(A, i)
        t.W = [(a, z)] + t.W
    return t


def group_race(g):  # group_race: two threads, one writes (or accesses atomically) what the other reads or writes
    who = {}
    for j, t in enumerate(g.threads):
        for a in t.W:
            who.setdefault(a, [set(), set(), set()])[0].add(j)
        for a in t.R:
            who.setdefault(a, [set(), set(), set()])[1].add(j)
        for a in t.A:
            who.setdefault(a, [set(), set(), set()])[2].add(j)
    # Some j in W or A and some other k in R or W.
    if any((w | at) and (w | r) and len(w | r | at) >= 2 for w, r, at in who.values()):
        return True
    return warp_race(g)


def warp_race(g):  # warp_race: an access against what a warp barrier ordered for another warp
    sr, sw, sa = g.S
    other = lambda log, a, j: any(b == a and i // 32 != j // 32 for b, i in log)
    for j, t in enumerate(g.threads):
        if any(other(sr + sw + sa, a, j) for a in t.W) or any(other(sw + sa, a, j) for a in t.R) \
                or any(other(sw + sr, a, j) for a in t.A):
            return True
    return False


def warp_sync_g(c, g, p):  # warp_sync_g
    ts = g.threads
    ran = [j for j, t in enumerate(ts) if holds(c, t, p)]
    writer = {}
    for j in ran:
        for a in ts[j].W:
            writer.setdefault(a, ts[j])  # find: the first ran thread that wrote it
    out = []
    for j, t in enumerate(ts):
        n = Thread(t.lid, t.gid, lambda A, z, own=t.sh: writer[(A, z)].sh(A, z) if (A, z) in writer else own(A, z))
        n.l = t.l
        if j in ran:
            n.R, n.W, n.A = [], [], []
        else:
            n.R, n.W, n.A = t.R, t.W, t.A
        out.append(n)
    ng = Group(out)
    ng.R, ng.W, ng.A = g.R, g.W, g.A
    moved = lambda f: [(a, j) for j in ran for a in f(ts[j])]
    ng.S = (moved(lambda t: t.R) + g.S[0], moved(lambda t: t.W) + g.S[1], moved(lambda t: t.A) + g.S[2])
    return ng


def merge_sh(g):  # merge_sh
    threads = g.threads
    writer = {}
    for t in threads:
        for a in t.W:
            writer.setdefault(a, t)  # find: the first thread that wrote it
    head = threads[0].sh

    def sh(A, z):
        t = writer.get((A, z))
        return t.sh(A, z) if t is not None else head(A, z)
    return sh


def sync_g(g):  # sync_g
    m = merge_sh(g)
    ts = []
    for t in g.threads:
        n = Thread(t.lid, t.gid, m)
        n.l = t.l
        ts.append(n)
    ng = Group(ts)
    ng.R, ng.W, ng.A = g.R, g.W, g.A  # the warp-ordered logs are forgotten
    return ng


def sync_on(c, s, gl, g):  # sync_on, covers: only the memories the fence orders
    m = merge_sh(g)
    covers = lambda a: gl if c.is_global(a) else s
    ts = []
    for t in g.threads:
        n = Thread(t.lid, t.gid, lambda A, z, old=t.sh: m(A, z) if covers(A) else old(A, z))
        n.l = t.l
        n.R = [a for a in t.R if not covers(a[0])]
        n.W = [a for a in t.W if not covers(a[0])]
        n.A = [a for a in t.A if not covers(a[0])]
        ts.append(n)
    ng = Group(ts)
    ng.R, ng.W, ng.A = g.R, g.W, g.A
    ng.S = tuple([e for e in log if not covers(e[0][0])] for log in g.S)
    return ng


class Abort(Exception):
    pass


def kbasic(c, groups, b, p):  # kbasic
    if any(out_of_bounds(c, t, b, p) for g in groups for t in g.threads):
        raise Abort("out_of_bounds")
    new = []
    for g in groups:
        ts = [tstep(c, t, b, p) for t in g.threads]
        ng = Group(ts)
        nr = {t2.R[0] for t1, t2 in zip(g.threads, ts) if len(t2.R) != len(t1.R)}
        nw = {t2.W[0] for t1, t2 in zip(g.threads, ts) if len(t2.W) != len(t1.W)}
        ng.R, ng.W, ng.A, ng.S = g.R | nr, g.W | nw, g.A, g.S
        new.append((ng, nr, nw))
    if any(group_race(ng) for ng, _, _ in new):
        raise Abort("race")
    for i, (_, nr, nw) in enumerate(new):  # new_kernel_race
        for j, (gj, _, _) in enumerate(new):
            if i == j:
                continue
            if any(c.is_global(a[0]) and (a in gj.R or a in gj.W) for a in nw):
                raise Abort("race")
            if any(c.is_global(a[0]) and a in gj.W for a in nr):
                raise Abort("race")
            if any(c.is_global(a[0]) and a in gj.A for a in nr | nw):
                raise Abort("race")
    return [ng for ng, _, _ in new]


def atomic_val(n, f, old, vs):  # atomic_val: on n-bit values
    m = 1 << n
    v = vs[0] if vs else 0
    u = vs[1] if len(vs) > 1 else 0
    f = f[0]
    if f == "AFadd":
        raise FloatOp("fadd")
    sgn = lambda x: x if x < (m >> 1) else x - m
    return {
        "AAdd": lambda: (old + v) % m, "ASub": lambda: (old - v) % m, "AXchg": lambda: v,
        "AMin": lambda: min(old, v), "AMax": lambda: max(old, v),
        "ASmin": lambda: old if sgn(old) <= sgn(v) else v, "ASmax": lambda: old if sgn(v) <= sgn(old) else v,
        "AInc": lambda: 0 if v <= old else (old + 1) % m, "ADec": lambda: v if old == 0 or v < old else old - 1,
        "ACas": lambda: u if old == v else old,
        "AAnd": lambda: old & v, "AOr": lambda: old | v, "AXor": lambda: old ^ v,
    }[f]()


def katomic(c, groups, w, b, d, dh, f, a, e, args, p):  # katomic_shaped, thread_atomic, atomic_oob
    elems = (8 if w else 4) if b else (2 if w else 1)
    unit = 256 if b else 1 << 32
    n = c.size_of(a)
    if any(holds(c, t, p) and n is not None and any(n <= (eval_e(c, t, e) + q) & M for q in range(elems))
           for g in groups for t in g.threads):
        raise Abort("out_of_bounds")
    groups = [Group([t.copy() for t in g.threads]) for g in groups]
    new_atomic = [set() for _ in groups]
    for i, g in enumerate(groups):
        for j, t in enumerate(g.threads):
            if not holds(c, t, p):
                continue
            z = eval_e(c, t, e)
            cells = [(z + q) & M for q in range(elems)]
            old = 0
            for y in reversed(cells):  # join_val: the lowest element first
                old = t.sh(a, y) % unit + unit * old
            words = [eval_e(c, t, x) for x in args]
            ops = [words[k] + (words[k + 1] << 32) for k in range(0, len(words) - 1, 2)] if w else words
            val = atomic_val(64 if w else 32, f, old, ops)
            parts = {y: (val // unit ** q) % unit for q, y in enumerate(cells)}  # split_val
            for i2, g2 in enumerate(groups):
                if c.is_global(a) or i2 == i:
                    for t2 in g2.threads:
                        t2.sh = (lambda A, k, prev=t2.sh, parts=parts: parts[k] if A == a and k in parts else prev(A, k))
            t.l = dict(t.l)
            if d[0] == "Some":
                t.l[d[1]] = old % (1 << 32)
            if dh[0] == "Some":
                t.l[dh[1]] = (old >> 32) % (1 << 32)
            t.A = [(a, y) for y in reversed(cells)] + t.A
            new_atomic[i] |= {(a, y) for y in cells}
    return groups, new_atomic


def atomic_step(c, groups, s, p):
    if s[0] == "SAtomic":
        w, b, d, dh, f, a, e, args = False, False, s[1], ("None",), s[2], s[3], s[4], s[5]
    else:
        w, b, d, dh, f, a, e, args = s[1] == ("True",), s[2] == ("True",), s[3], s[4], s[5], s[6], s[7], s[8]
    before = [(g.R, g.W, g.A, g.S) for g in groups]
    out, new_atomic = katomic(c, groups, w, b, d, dh, f, a, e, args, p)
    for g, (r, w, at, sl), na in zip(out, before, new_atomic):
        g.R, g.W, g.A, g.S = r, w, at | na, sl
    if any(group_race(g) for g in out):
        raise Abort("race")
    for i, na in enumerate(new_atomic):
        for j, gj in enumerate(out):
            if i != j and any(c.is_global(x[0]) and (x in gj.R or x in gj.W) for x in na):
                raise Abort("race")
    return out


def sync_each(c, es, eg, g):  # sync_each, covers_t: each thread's own fence
    covers = lambda t, a: holds(c, t, eg) if c.is_global(a) else holds(c, t, es)
    writer = {}
    for t in g.threads:
        for a in t.W:
            if covers(t, a[0]):
                writer.setdefault(a, t)  # find: the first covered thread that wrote it
    ts = []
    for t in g.threads:
        n = Thread(t.lid, t.gid, lambda A, z, own=t.sh: writer[(A, z)].sh(A, z) if (A, z) in writer else own(A, z))
        n.l = t.l
        n.R = [a for a in t.R if not covers(t, a[0])]
        n.W = [a for a in t.W if not covers(t, a[0])]
        n.A = [a for a in t.A if not covers(t, a[0])]
        ts.append(n)
    ng = Group(ts)
    ng.R, ng.W, ng.A = g.R, g.W, g.A
    ng.S = tuple([e for e in log if not all(covers(t, e[0][0]) for t in g.threads)] for log in g.S)
    return ng


def kbarrier(c, groups, p, fence=None):  # kbarrier, gbarrier (kbarrier_on, gbarrier_on with a fence)
    out = []
    for g in groups:
        on = [holds(c, t, p) for t in g.threads]
        if all(on):
            if fence is None:
                out.append(sync_g(g))
            elif fence[0] == "each":
                out.append(sync_each(c, fence[1], fence[2], g))
            else:
                out.append(sync_on(c, fence[0], fence[1], g))
        elif not any(on):
            out.append(g)
        else:
            raise Abort("divergence")
    return out


def kgrid(c, groups, p):  # kgrid, grid_sync
    on = [holds(c, t, p) for g in groups for t in g.threads]
    if not any(on):
        return groups
    if not all(on):
        raise Abort("divergence")
    synced = [sync_g(g) for g in groups]
    src = {}
    for i, g in enumerate(groups):
        for a in g.W:
            src.setdefault(a, i)  # find: the first group that wrote it
    out = []
    for g in synced:
        ts = []
        for t in g.threads:
            def sh(A, z, own=t.sh):
                i = src.get((A, z))
                if c.is_global(A) and i is not None:
                    return synced[i].threads[0].sh(A, z)
                return own(A, z)
            n = Thread(t.lid, t.gid, sh)
            n.l = t.l
            ts.append(n)
        out.append(Group(ts))  # the groups' logs are forgotten
    return out


def kexec(fuel, c, kernel, groups, work):  # kexec, iteratively (the list is the work)
    fresh = 0
    procs = {q["p_name"]: q for q in kernel["k_procs"]}
    while True:
        if fuel == 0:
            return None
        fuel -= 1
        if not work:
            return groups
        (s, p), work = work[0], work[1:]
        k = s[0]
        if k == "SBasic":
            groups = kbasic(c, groups, s[1], p)
        elif k == "SBarrier":
            groups = kbarrier(c, groups, p)
        elif k == "SBarrierEach":
            groups = kbarrier(c, groups, p, ("each", s[1], s[2]))
        elif k == "SBarrierOn":
            groups = kbarrier(c, groups, p, (s[1] == ("True",), s[2] == ("True",)))
        elif k in ("SAtomic", "SAtomicShaped"):
            groups = atomic_step(c, groups, s, p)
        elif k == "SGridBarrier":
            groups = kgrid(c, groups, p)
        elif k == "SEvery":
            if any(holds(c, t, p) for g in groups for t in g.threads):
                work = [(s[1], ("ELit", 1))] + work
        elif k == "SSeq":
            work = [(s[1], p), (s[2], p)] + work
        elif k == "SSkip":
            pass
        elif k == "SLocal":
            work = [(subst_s(s[1], ("Fresh", fresh), s[2]), p)] + work
            fresh += 1
        elif k == "SIf":
            v = ("Fresh", fresh)
            fresh += 1
            work = [(("SBasic", ("BAssign", v, s[1])), p), (s[2], pand(p, v)), (s[3], pand_not(p, v))] + work
        elif k == "SWhile":
            v = ("Fresh", fresh)
            fresh += 1
            q = pand_not(p, v)
            work = [(("SAssertP", ("CkEnabled",), i), q) for i in s[2]] + [(("SWhileU", s[1], s[2], elim("SBreak", v, s[3], False)), q)] + work
        elif k == "SWhileU":
            if any(holds(c, t, p) and holds(c, t, s[1]) for g in groups for t in g.threads):
                u, v = ("Fresh", fresh), ("Fresh", fresh + 1)
                fresh += 2
                work = ([(("SBasic", ("BAssign", u, s[1])), p), (elim("SContinue", v, s[3], False), pand_not(pand(p, u), v))]
                        + [(("SAssertP", ("CkEnabled",), i), pand(p, u)) for i in s[2]] + [(s, p)] + work)
        elif k == "SCall":
            q = procs.get(s[1])
            if q is None:
                raise Abort("ill_formed")
            n = fresh
            us = [("Fresh", i) for i in range(n, n + len(s[2]))]
            v = ("Fresh", n + len(s[2]))
            fresh = n + len(s[2]) + 1
            body = elim("SReturn", v, subst_all(q["p_params"], us, q["p_body"]), True)
            work = [(seq_all([("SBasic", ("BAssign", u, e)) for u, e in zip(us, s[2])], body), pand_not(p, v))] + work
        elif k in ("SAssert", "SAssume"):
            if any(holds(c, t, p) and not holds(c, t, s[1]) for g in groups for t in g.threads):
                raise Abort("assertion" if k == "SAssert" else "infeasible")
        elif k == "SAssertP":
            if pairs_fail(c, groups, p, s[1][0], s[2]):
                raise Abort("assertion")
        elif k == "SAssumeP":
            if pairs_fail(c, groups, p, "CkEnabled", s[1]):
                raise Abort("infeasible")
        elif k == "SHavoc":
            groups = havoc_with(c, groups, s[1], p)
        elif k == "SWarp":
            groups = kwarp(c, groups, s, p)
        else:
            raise Abort("ill_formed")


def ids(d):  # ids: x fastest
    x, y, z = d
    return [(kx, ky, kz) for kz in range(z) for ky in range(y) for kx in range(x)]


def init_at(ini, i):  # init_at
    if ini[0] == "Dense":
        return ini[1][i] if i < len(ini[1]) else 0
    for pair in ini[1]:
        k, v = tup(pair)
        if k == i:
            return v
    return 0


def initial_sh(inputs, g):  # initial_sh
    glob, shared = {}, {}
    for pair in inputs["in_global"]:
        a, ini = tup(pair)
        glob.setdefault(a, ini)
    for pair in inputs["in_shared"]:
        a, inis = tup(pair)
        shared.setdefault(a, inis)

    def sh(A, z):
        if A in glob:
            return init_at(glob[A], z)
        if A in shared:
            return init_at(shared[A][g], z) if g < len(shared[A]) else 0
        return 0
    return sh


def run_kernel(fuel, kernel, launch, inputs):  # run_kernel
    c = Ctx(kernel, launch, inputs)
    groups = [Group([Thread(lid, gid, initial_sh(inputs, n)) for lid in ids(c.threads)])
              for n, gid in enumerate(ids(c.groups))]
    first = groups[0].threads[0]
    if any(not holds(c, first, r) for r in kernel["k_requires"]):
        return ("failed", "infeasible")
    try:
        final = kexec(fuel, c, kernel, groups, [(kernel["k_main"], ("ELit", 1))])
    except Abort as e:
        return ("failed", e.args[0])
    if final is None:
        return ("failed", "timeout")
    writers = {}
    for g in final:
        for a in g.W | g.A:
            writers.setdefault(a, g)
    merged = [merge_sh(g) for g in final]
    base = initial_sh(inputs, 0)

    def gm(A, z):  # global_mem
        g = writers.get((A, z))
        if g is not None:
            return merge_sh(g)(A, z)
        return merged[0](A, z) if final else base(A, z)
    return ("ok", gm, merged)


def main():
    thy = open(sys.argv[1]).read()
    name = re.search(r"definition (kernel_\w+) :: kernel", thy).group(1)[len("kernel_"):]
    kernel = definition(thy, "kernel_" + name)
    launch = definition(thy, "launch_" + name)
    lemma = re.search(r'lemma run_\w+:\s*"(.*?)"\s*by ', thy, re.S)
    if lemma is None:
        print("no differential lemma")
        return 2
    inputs = definition(thy, "inputs_" + name)
    stmt = lemma.group(1)
    fuel = int(re.search(r"run_kernel (\d+)", stmt).group(1))
    try:
        r = run_kernel(fuel, kernel, launch, inputs)
    except FloatOp as f:
        print(f"uses the uninterpreted float operation {f}")
        return 2
    m = re.search(r"= ''(\w+)''$", stmt.strip())
    if m:
        got = r[1] if r[0] == "failed" else "ok"
        if got != m.group(1):
            print(f"the lemma says {m.group(1)}; the semantics gives {got}")
            return 1
        print(f"ok: {got}")
        return 0
    if r[0] != "ok":
        print(f"the lemma states final arrays; the semantics gives {r[1]}")
        return 1
    obs = re.search(r"\)\s*(\[.*?\])\s*=\s*Some\s*(\[.*\])$", stmt.strip(), re.S)
    queries = Parser(obs.group(1)).term()
    want = Parser(obs.group(2)).term()
    _, gm, merged = r
    got = []
    for q in queries:
        a, g, idx = tup(q)
        got.append([gm(a, i) if g == ("None",) else merged[g[1]](a, i) for i in idx])
    for q, gv, wv in zip(queries, got, want):
        if gv != wv:
            bad = next(i for i in range(len(gv)) if gv[i] != wv[i])
            print(f"{tup(q)[0]}: element {bad} of the observed list is {gv[bad]} in the semantics, {wv[bad]} in the lemma")
            return 1
    print(f"ok: {sum(len(x) for x in got)} elements")
    return 0


if __name__ == "__main__":
    sys.exit(main())
