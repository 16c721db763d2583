#!/usr/bin/env python3
"""Run 8 (device-run8.sh): per react-gpu run, from its decisions.jsonl and
epochs.csv: pattern changes, reverts, measured epochs (from the warm-up on)
on patterns a revert left, decision lines whose reason holds MARK (default
"for D = 5": the escalated bar's), and REACT's mean algbw over the
baseline's.  Run 9 (device-run9.sh) passes MARK "(fruitless_stop)".
usage: run8-analysis.py OUTDIR [MARK]"""
import collections, csv, glob, json, sys

mark = sys.argv[2] if len(sys.argv) > 2 else 'for D = 5'
rows = collections.defaultdict(list)
for d in sorted(glob.glob(sys.argv[1] + '/local-*')):
    name, rep = d.rsplit('/', 1)[1].rsplit('-', 1)
    dec = [json.loads(l) for l in open(d + '/decisions.jsonl')]
    ep = list(csv.DictReader(open(d + '/epochs.csv')))
    acts = collections.Counter(x['action'] for x in dec)
    chg = sum(v for k, v in acts.items() if k not in ('none', 'extend'))
    rev = sum(v for k, v in acts.items() if k.startswith('revert'))
    left = {x['pattern_hash'] for x in dec if x['action'].startswith('revert')}
    meas = [r for r in ep if r['mode'] == 'react' and int(r['epoch']) >= 10]
    base = [float(r['algbw_gbps']) for r in ep if r['mode'] == 'baseline' and int(r['epoch']) >= 10]
    on_left = sum(r['pattern_hash'] in left for r in meas)
    bar = sum(mark in x.get('why', '') for x in dec)
    gain = sum(float(r['algbw_gbps']) for r in meas) / len(meas) / (sum(base) / len(base)) - 1
    rows[name].append((chg, rev, on_left, len(meas), bar, gain))
for name, v in rows.items():
    tot = [sum(x[i] for x in v) for i in range(5)]
    print(f"{name:16s} " + ' | '.join(f"{a} changes, {b} reverts, {c}/{n} epochs on reverted, "
                                      f"{e} '{mark}' lines, {100 * g:+.1f} %" for a, b, c, n, e, g in v)
          + f" || {tot[0]} changes, {tot[1]} reverts, {tot[2]}/{tot[3]} epochs on reverted")
