#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Generates a large synthetic evidence bundle for the benchmarks: 16 nodes x 8 ranks, about SIZE_MB of
evidence (default 250) in the real formats (srun --label job log, raw dmesg, journalctl -o json, logcli jsonl,
sacct -P, slurmctld log), with one incident hidden in the noise: Xid 79 on node-07 GPU 3, then NCCL errors and
watchdog timeouts on every other node. Deterministic (fixed seed)."""
import json
import os
import random
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "bench-bundle"
size_mb = int(sys.argv[2]) if len(sys.argv) > 2 else 250
rng = random.Random(48213)
nodes = [f"node-{i:02d}" for i in range(1, 17)]
start = 1793606400  # 2026-11-02T08:00:00Z
fault = start + 7200 + 1  # 10:00:01Z
boot = start - 86400 * 3
os.makedirs(f"{out}/slurm", exist_ok=True)
os.makedirs(f"{out}/joblogs", exist_ok=True)
os.makedirs(f"{out}/loki", exist_ok=True)


def iso(t):
    import datetime
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")


with open(f"{out}/faultline.yaml", "w") as f:
    f.write("bundle: bench\nworkload: {scheduler: slurm, job_id: \"90001\", nodes: \"node-[01-16]\", ranks_per_node: 8}\nhosts:\n")
    for i, n in enumerate(nodes):
        f.write(f"  {n}: {{tz: UTC, boot_time: \"{iso(boot)}Z\", ip: 10.20.0.{i + 1}}}\n")
    f.write("files:\n  loki/joblog.jsonl: {format: logcli-jsonl}\n")
with open(f"{out}/slurm/sacct_90001.psv", "w") as f:
    f.write("JobID|JobIDRaw|JobName|State|ExitCode|Start|End|NodeList\n")
    f.write(f"90001|90001|bench|FAILED|1:0|{iso(start)}|{iso(fault + 700)}|node-[01-16]\n")
    f.write(f"90001.0|90001.0|torchrun|FAILED|1:0|{iso(start + 5)}|{iso(fault + 699)}|node-[01-16]\n")
with open(f"{out}/slurm/slurmctld.log", "w") as f:
    f.write(f"[{iso(start)}.100] sched: Allocate JobId=90001 NodeList=node-[01-16] #CPUs=3584 Partition=gpu\n")
    f.write(f"[{iso(fault + 700)}.200] _job_complete: JobId=90001 WEXITSTATUS 1\n")

budget = size_mb * 1024 * 1024
share = {"joblog": 0.55, "dmesg": 0.15, "journal": 0.2, "loki": 0.10}

# Job log: training noise from every rank, then the incident's cascades.
with open(f"{out}/joblogs/slurm-90001.out", "w") as f:
    written = 0
    step = 0
    t = start + 20.0
    for node_idx, n in enumerate(nodes):
        for local in range(8):
            rank = node_idx * 8 + local
            f.write(f"{node_idx}: {n}:{40000 + rank}:{40000 + rank} [{local}] NCCL INFO ncclCommInitRankConfig comm 0x55c3 rank {rank} nranks 128 cudaDev {local} nvmlDev {local} busId {local + 1}b000 commId 0x7f3e - Init COMPLETE\n")
    limit = budget * share["joblog"]
    span = fault - 30 - t
    lines_est = limit / 110
    dt = span / lines_est
    while written < limit:
        node_idx = rng.randrange(16)
        rank = node_idx * 8 + rng.randrange(8)
        kind = rng.random()
        if kind < 0.6:
            line = f"{node_idx}: [rank{rank}]: iteration {step}/500000 | consumed samples {step * 1024} | lm loss {2 + rng.random():.6f} | grad norm {rng.random():.3f} | tokens/s {rng.randrange(90000, 99999)}\n"
        elif kind < 0.9:
            line = f"{node_idx}: [rank{rank}]:[I{1102} {iso(int(t))[11:]}.{rng.randrange(10**9):09d} ProcessGroupNCCL.cpp:2030] [PG ID 0 PG GUID 0(default_pg) Rank {rank}] NCCL INFO collective done seq {step}\n"
        else:
            line = f"{node_idx}: {nodes[node_idx]}:{40000 + rank}:{40100 + rank} [{rank % 8}] NCCL INFO Channel 02/0 : {rank} -> {(rank + 1) % 128} via NET/IB/{rank % 8}/GDRDMA\n"
        f.write(line)
        written += len(line)
        step += 1
        t += dt
    for node_idx, n in enumerate(nodes):
        if n == "node-07":
            continue
        rank = node_idx * 8 + 3
        f.write(f"{node_idx}: [{iso(fault + 31).replace('T', ' ')}] {n}:{40000 + rank}:{40200 + rank} [3] transport/net_ib.cc:2449 NCCL WARN NET/IB: Got completion from peer 10.20.0.7<52311> with status=12 opcode=0 len=0 vendor err 129 (Send) hca mlx5_3\n")
        for local in range(8):
            r = node_idx * 8 + local
            f.write(f"{node_idx}: [rank{r}]:[E1102 {iso(fault + 600)[11:]}.330118204 ProcessGroupNCCL.cpp:632] [Rank {r}] Watchdog caught collective operation timeout: WorkNCCL(SeqNum={step}, OpType=ALLREDUCE, NumelIn=67108864, NumelOut=67108864, Timeout(ms)=600000) ran for 600418 milliseconds before timing out.\n")
        f.write(f"srun: error: {n}: task {node_idx}: Exited with exit code 1\n")

# Kernel logs: raw dmesg and journald JSON per node, mostly noise.
for node_idx, n in enumerate(nodes):
    os.makedirs(f"{out}/nodes/{n}", exist_ok=True)
    per_node = budget * share["dmesg"] / 16
    with open(f"{out}/nodes/{n}/dmesg.txt", "w") as f:
        written = 0
        wrote_xid = False
        mono = float(start - boot)
        while written < per_node:
            mono += 0.05 + rng.random() * 0.5
            line = f"[{mono:12.6f}] {rng.choice(['mlx5_core 0000:c1:00.0: poll_health:801: device health ok', 'audit: type=1400 apparmor=STATUS operation=profile_load', 'EXT4-fs (nvme0n1p2): re-mounted. Quota mode: none.', 'nvidia-peermem: peer memory registered', 'IPv6: ADDRCONF(NETDEV_CHANGE): ibp12s0: link becomes ready'])}\n"
            f.write(line)
            written += len(line)
            if n == "node-07" and abs(boot + mono - fault) < 0.6:
                f.write(f"[{fault - boot:12.6f}] NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n")
                wrote_xid = True
        # A small bundle's noise ends before the fault: the incident's line still comes, at its time.
        if n == "node-07" and not wrote_xid:
            f.write(f"[{fault - boot:12.6f}] NVRM: Xid (PCI:0000:61:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.\n")
    per_node = budget * share["journal"] / 16
    with open(f"{out}/nodes/{n}/journal-kernel.jsonl", "w") as f:
        written = 0
        t_us = start * 1000000
        while written < per_node:
            t_us += rng.randrange(10000, 400000)
            rec = {"__REALTIME_TIMESTAMP": str(t_us), "__MONOTONIC_TIMESTAMP": str(t_us - boot * 1000000),
                   "_BOOT_ID": "3f0c9a6e", "_HOSTNAME": n, "PRIORITY": "6", "SYSLOG_IDENTIFIER": "kernel", "_TRANSPORT": "kernel",
                   "MESSAGE": rng.choice(["mlx5_core 0000:c1:00.0: poll_health:801: device health ok", "nvidia-nvswitch0: link training ok",
                                          "perf: interrupt took too long (2503 > 2500), lowering kernel.perf_event_max_sample_rate"])}
            line = json.dumps(rec, separators=(",", ":")) + "\n"
            f.write(line)
            written += len(line)

# Loki export of the job log.
with open(f"{out}/loki/joblog.jsonl", "w") as f:
    written = 0
    t = start + 30
    limit = budget * share["loki"]
    while written < limit:
        t += 0.01
        rank = rng.randrange(128)
        rec = {"labels": {}, "line": f"{rank // 8}: [rank{rank}]: iteration {int(t)} | lm loss {2 + rng.random():.5f}",
               "timestamp": f"{iso(int(t))}.{int((t % 1) * 1e6):06d}Z"}
        line = json.dumps(rec, separators=(",", ":"), sort_keys=True) + "\n"
        f.write(line)
        written += len(line)
print(out)
