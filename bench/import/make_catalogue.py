#!/usr/bin/env python3
"""The catalogue of today's machines (docs/machines-today.md): one model file in machines/ per
system, fitted by `augur import … --fit` from the OSU Micro-Benchmarks or Intel MPI Benchmarks
output its centre or vendor published (stored in tests/data/import/published/, sources in its
README.md), with the provenance the output alone does not carry: where it was published, the
date, MPI library, network, ranks a node, the node's published figures and what the model lacks.

Usage: bench/import/make_catalogue.py AUGUR   (from the repository's root; rewrites machines/*.json)
"""
import json
import os
import subprocess
import sys
import tempfile

PUBLISHED = "tests/data/import/published"

SYSTEMS = [
    {
        "name": "oci-optimized3",
        "suite": "imb",
        "groups": [{"files": ["oci-optimized3-imb-2018-pingpong-2nodes.txt", "oci-optimized3-imb-2021.2-alltoall-4nodes.txt"],
                    "ranks_per_node": 1}],
        "description": "Oracle Cloud Infrastructure bare-metal shape BM.Optimized3.36 (Intel Ice Lake, 36 cores, 512 GB a node) "
                       "on OCI's cluster network (RoCE v2, 100 Gb/s): fitted by `augur import` from the Intel MPI Benchmarks "
                       "output of Oracle's HPC tutorial. One rank a node: PingPong between 2 nodes, Alltoall over 2 and 4 nodes.",
        "source": "github.com/oracle-japan/ocitutorials, tutorials/_hpc/spinup-hpc-cluster.md at commit 22edbec3193a3577c66f6a65caeb1abc203d1b1b "
                  "(sections 6 and 8); node figures from tutorials/_hpc/benchmark/run-stream.md (commit 55b81c8) and run-hpl.md (commit 1cb46d4)",
        "date": "2023-04-10",
        "mpi_library": "Open MPI",
        "mpi_version": "4.1.2a1",
        "settings": {
            "network": "RoCE v2 100 Gb/s (OCI cluster network)",
            "ranks_per_node": 1,
            "node": "BM.Optimized3.36: Intel Ice Lake, 36 cores, 512 GB",
            "node_figures": "STREAM triad 308,754 MB/s a node (72 threads); HPL 4,925 Gflop/s on 2 nodes (Intel MKL 2023.2, Intel MPI 2021.10)",
            "mpi_note": "PingPong: IMB 2018 of Open MPI 4.1.2a1, 2023-04-10; Alltoall: IMB 2021.2 from the same job script on 2022-03-24, "
                        "whose stderr shows an Intel MPI 2021.3.0 module loaded",
            "lacks": "every collective but alltoall; alltoall beyond 4 ranks; ranks sharing a node (no on-node figures); "
                     "sizes above 256 MiB (ping-pong) and 4 MiB (alltoall)",
        },
    },
    {
        "name": "cofc-hpc",
        "suite": "omb",
        "groups": [{"files": ["cofc-omb-5.3.2-latency-2nodes.txt", "cofc-omb-5.3.2-bibw-2nodes.txt"], "ranks_per_node": 1}],
        "description": "College of Charleston HPC cluster (OpenHPC; 40-core standard nodes) on InfiniBand, MVAPICH2 2.2: fitted by "
                       "`augur import` from the OSU Micro-Benchmarks 5.3.2 osu_latency and osu_bibw output the centre published, "
                       "one rank a node, between the head node and compute001.",
        "source": "github.com/hpc-cofc/generic-benchmarks, network/infiniband/osu-mpi-benchmarks/initial/{latency,bibw}/compute001.log "
                  "at commit 1f3347242dafcbce0db42cef290cf54eef16567f (run by ib-pt2pt.sh there); node figures from compute/README.md "
                  "at commit 778fa9848111212e2e48628350381a7077e524f3",
        "date": "2019-11-12",
        "mpi_library": "MVAPICH2",
        "mpi_version": "2.2",
        "settings": {
            "network": "InfiniBand (generation not stated)",
            "ranks_per_node": 1,
            "node": "standard node: 40 cores (the head node `openhpc` is one end of the pair)",
            "node_figures": "HPL 2,285 Gflop/s on one 40-core node, 22,219 Gflop/s on 10 (HPL 2.1)",
            "lacks": "every collective; more than 2 ranks; ranks sharing a node; the InfiniBand generation; sizes above 4 MiB",
        },
    },
    {
        "name": "cirrus-ex4000",
        "suite": "omb",
        "groups": [{"files": ["cirrus-omb-7.5-allreduce-576ranks-2nodes.txt"], "processes": 576, "ranks_per_node": 288}],
        "description": "EPCC Cirrus: HPE EX4000, 2x AMD EPYC 9825 (288 cores) a node on HPE Slingshot 11 (dragonfly, 2x 100 Gb/s "
                       "injection a node): fitted by `augur import` from the OSU Micro-Benchmarks 7.5 osu_allreduce output of the "
                       "Cirrus documentation, 576 ranks on 2 full nodes.",
        "source": "github.com/EPCCed/cirrus-docs, docs/user-guide/containers.md at commit bda097ac2ad95c080ff86d44be8dfcdf1e3ea684 "
                  "(\"Running parallel MPI jobs using Apptainer containers\"); node and network from docs/user-guide/hardware.md",
        "date": "2025-11-15",
        "mpi_library": "Cray MPICH",
        "mpi_version": "8.1.32",
        "settings": {
            "network": "HPE Slingshot 11 (dragonfly)",
            "ranks_per_node": 288,
            "node": "2x AMD EPYC 9825 (Zen 5), 288 cores, 2.2 GHz, 768 GB",
            "mpi_note": "MPICH inside an Apptainer container, run over Cray MPICH 8.1.32's ABI (cray-mpich-abi); "
                        "the output is undated, the date is the documentation's commit",
            "lacks": "point-to-point (no ping-pong, bandwidth or network section: augur run and sim price messages at 0 and say so); every collective "
                     "but allreduce; process counts other than 576; sizes above 1 MiB; published node figures (HPL, STREAM)",
        },
    },
    {
        "name": "archer2",
        "suite": "omb",
        "groups": [{"files": ["archer2-omb-5.4.1-allreduce-256ranks-2nodes.txt"], "processes": 256, "ranks_per_node": 128}],
        "description": "ARCHER2 (EPCC, UK national service): HPE Cray EX, 2x AMD EPYC 7742 (128 cores) a node on HPE Slingshot "
                       "(2x 100 Gb/s injection a node): fitted by `augur import` from the OSU Micro-Benchmarks 5.4.1 osu_allreduce "
                       "output of the ARCHER2 documentation, 256 ranks on 2 full nodes.",
        "source": "github.com/EPCCed/archer2-docs, docs/user-guide/containers.md at commit 31a7aeb1f05e5cffc7d584db7ff0e036c050fab5 "
                  "(\"Running parallel MPI jobs using Singularity containers\"); node and network from docs/user-guide/hardware.md",
        "date": "2023-05-30",
        "mpi_library": "Cray MPICH",
        "mpi_version": "8.1.23",
        "settings": {
            "network": "HPE Slingshot (2x 100 Gb/s a node)",
            "ranks_per_node": 128,
            "node": "2x AMD EPYC 7742 (Zen 2), 128 cores, 2.25 GHz, 256 GB",
            "node_figures": "peak 4.6 Tflop/s a node as the documentation works it out (128 cores x 2.25 GHz x 16 flops a cycle)",
            "mpi_note": "MPICH inside a Singularity container, run over Cray MPICH 8.1.23's ABI (cray-mpich-abi); "
                        "the output is undated, the date is the documentation's commit",
            "lacks": "point-to-point (no ping-pong, bandwidth or network section: augur run and sim price messages at 0 and say so); every collective "
                     "but allreduce; process counts other than 256; sizes above 1 MiB; HPL and STREAM a node",
        },
    },
]


def csd3(network, gbits):
    """CSD3's Cascade Lake nodes on one of their two networks, as StackHPC's ReFrame suite ran OMB there."""
    files = [f"csd3-cclake-{network}-omb-5.6.3-{t}" for t in ("latency-2nodes.txt", "bw-2nodes.txt", "bibw-2nodes.txt")]
    collectives = [f"csd3-cclake-{network}-omb-5.6.3-{t}-64ranks-2nodes.txt" for t in ("allreduce", "alltoall", "allgather")]
    name = {"ib": "InfiniBand", "roce": "RoCE"}[network]
    partition = f"output/csd3/cclake-{network}-gcc9-ompi3-ucx/omb/"
    return {
        "name": f"csd3-cclake-{network}",
        "suite": "omb",
        "groups": [{"files": files, "ranks_per_node": 1}, {"files": collectives, "processes": 64, "ranks_per_node": 32}],
        "description": f"CSD3 (Cambridge Service for Data Driven Discovery), Cascade Lake nodes on their {gbits} Gb/s {name} "
                       f"(the nodes have both networks; UCX_NET_DEVICES picks one): fitted by `augur import` from the OSU "
                       f"Micro-Benchmarks 5.6.3 output of StackHPC's ReFrame suite, Open MPI 3.1.6 with UCX. osu_latency, "
                       f"osu_bw and osu_bibw one rank a node between 2 nodes; osu_allreduce, osu_alltoall and osu_allgather "
                       f"on 64 ranks, 32 a node.",
        "source": f"github.com/stackhpc/hpc-tests, {partition}Osu_{{latency,bw,bibw,allreduce,alltoall,allgather}}/*_job.out "
                  f"at commit f735aa2fc4cbe42451e27664c7bdd52b5cee919f (job scripts beside them); the network from "
                  f"reframe_config.py and systems/sysinfo.json; HPL from output/csd3/cclake-ib-icc19-impi19-ucx/intel-hpl/",
        "date": "2020-10-01",
        "mpi_library": "Open MPI",
        "mpi_version": "3.1.6",
        "settings": {
            "network": f"{name} {gbits} Gb/s",
            "ranks_per_node": 32,
            "placement_note": "the collectives ran 32 ranks a node on 2 nodes; osu_latency, osu_bw and osu_bibw one rank a node "
                              "on 2 nodes (each imported table's placement is in `import`)",
            "node": "Intel Cascade Lake (csd3's cclake partition); the suite's application runs use 56 ranks a node",
            "node_figures": "HPL 2,510 Gflop/s on one node (Intel HPL, icc 19, Intel MPI 2019)",
            "lacks": "bcast, reduce, gather, scatter, barrier and the v forms; process counts other than 2 and 64; ranks sharing "
                     "a node in the point-to-point figures; sizes above 4 MiB (point-to-point) and 1 MiB (collectives)",
        },
    }


SYSTEMS += [csd3("ib", 100), csd3("roce", 50)]

SYSTEMS.append({
    "name": "vermilion-proto",
    "suite": "imb",
    "groups": [{"files": ["vermilion-proto-imb-2019.6-pingpong-2nodes.txt", "vermilion-proto-imb-2019.6-uniband-2nodes.txt",
                          "vermilion-proto-imb-2019.6-biband-2nodes.txt"], "ranks_per_node": 1}],
    "description": "NREL's Vermilion prototype on 10 Gb/s Ethernet: fitted by `augur import` from the Intel MPI Benchmarks "
                   "2019 Update 6 output of StackHPC's ReFrame suite for it, Open MPI 4.0.5 with UCX; PingPong, Uniband and "
                   "Biband between 2 nodes, one rank a node.",
    "source": "github.com/stackhpc/nrel-benchmarks, output/proto/hpc/spack-gcc@9.3.0-openmpi@4.0.5-ucx/"
              "IMB_{PingPong,Uniband__1,Biband__1}/rfm_*_job.out at commit 9717ca701b2d8f5b0032014b8d3906296888d089 "
              "(job scripts beside them); the network from systems/sysinfo.json, the system from reframe_config.py",
    "date": "2021-03-11",
    "mpi_library": "Open MPI",
    "mpi_version": "4.0.5",
    "settings": {
        "network": "Ethernet 10 Gb/s",
        "ranks_per_node": 1,
        "node": "not described in the source (its Spack builds target ivybridge)",
        "lacks": "every collective; more than 2 ranks; ranks sharing a node; node figures; sizes above 4 MiB",
    },
})


# What each operation's law times, as the suites print it (docs/import.md, "What maps to what").
MEANINGS = {
    "pingpong": "half the round trip of a ping-pong between two nodes, as osu_latency and IMB PingPong print it (average over the repetitions)",
    "bistream": "time per message each way while the two ranks of each pair stream windows of messages to each other: "
                "2 x pairs x size / the bandwidth osu_bibw or IMB Biband prints for all pairs together",
    "alltoall": "IMB Alltoall's t_avg or osu_alltoall's Avg Latency: each rank's time averaged over the ranks",
    "allgather": "osu_allgather's Avg Latency: each rank's time averaged over the ranks",
    "stream": "time per message of a window of messages streamed one way, pair by pair: pairs x size / the bandwidth "
              "osu_bw or IMB Uniband prints for all pairs together",
    "allreduce": "osu_allreduce's Avg Latency (MPI_INT sums in OMB 7, MPI_FLOAT in 5): each rank's time averaged over the ranks, "
                 "at the one process count printed; the law has no term in p",
}


def import_group(augur, system, group, raw):
    command = [augur, "import", system["suite"], *group["files"], "-o", raw, "--machine-name", system["name"],
               "--ranks-per-node", str(group["ranks_per_node"])]
    if "processes" in group:
        command += ["--processes", str(group["processes"])]
    subprocess.run(command, cwd=PUBLISHED, check=True)
    with open(raw, encoding="utf-8") as f:
        return json.loads(f.readline())["provenance"]["settings"]["import"]


# Each group of files ran with its own placement (point-to-point one rank a node, collectives on
# full nodes): imported apart, so each table keeps its own, and fitted together.
def build(augur, system, scratch):
    raws, imported = [], []
    for i, group in enumerate(system["groups"]):
        raws.append(os.path.join(scratch, f"raw{i}.jsonl"))
        imported += import_group(augur, system, group, raws[-1])
    fitted = os.path.join(scratch, "model.json")
    subprocess.run([augur, "fit", *raws, "-o", fitted], check=True)
    with open(fitted, encoding="utf-8") as f:
        model = json.load(f)
    model["machine"]["name"] = system["name"]
    model["machine"]["description"] = system["description"]
    for name, operation in model["operations"].items():
        operation["meaning"] = MEANINGS[name]
    provenance = model["provenance"]
    provenance["source"] = system["source"]
    for key in ("date", "mpi_library", "mpi_version"):
        provenance[key] = system[key]
    provenance["measured_by"] = ", ".join(sorted({f"{t['suite']} {t['version']}" for t in imported}))
    provenance["settings"] = {**system["settings"], "import": imported}
    return model


def main():
    augur = os.path.abspath(sys.argv[1])
    for system in SYSTEMS:
        with tempfile.TemporaryDirectory() as scratch:
            model = build(augur, system, scratch)
        with open(os.path.join("machines", system["name"] + ".json"), "w", encoding="utf-8") as f:
            json.dump(model, f, indent=2, ensure_ascii=False)
            f.write("\n")


if __name__ == "__main__":
    main()
