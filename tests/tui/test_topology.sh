#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The Topology screen at 80x24 on the eight-GPU, eight-NIC fixture host:
# the GPU x NIC matrix with NCCL's labels and the NIC each GPU uses, and
# the selected pair's path hop by hop, on the healthy tree and on the one
# with a NIC down, ACS redirecting and a narrow GPU link.
set -u
command -v tmux >/dev/null || { echo "tmux not installed: skipped"; exit 77; }
. "$(dirname "$0")/lib.sh"

fix="$RDMADIAG_SRCDIR/tests/fixtures"

tui_start topo 80 24 --root "$fix/h200x8-vm-topology"
wait_for topo "Overview"
keys topo g
wait_for topo "mlx5_12  mlx5_13  mlx5_14  mlx5_15  mlx5_8   mlx5_9   mlx5_10  mlx5_11"
wait_for topo "GPU0  PIX*     PHB      PHB      PHB      SYS      SYS      SYS      SYS"
wait_for topo "GPU7  SYS      SYS      SYS      SYS      PHB      PHB      PHB      PIX*"
wait_for topo "GPU0 0000:68:00.0 to mlx5_12: PIX (nvidia-smi PIX), the NIC NCCL uses"
wait_for topo "top  0000:65:00.0 switch"
wait_for topo "GPUDirect RDMA: the path allows it (PIX, no ACS redirection)"
wait_for topo "Peer memory: nvidia_peermem 550.127.08"
# Another NIC of the same GPU: through the host bridge, GPUDirect off.
keys topo Right
wait_for topo "GPU0 0000:68:00.0 to mlx5_13: PHB (nvidia-smi PHB)"
wait_for topo "via  host bridge pci0000:64"
wait_for topo "GPUDirect RDMA: off at NCCL's default level (PHB is beyond PXB)"
# Back to its own NIC, then the next GPU.
keys topo i
wait_for topo "to mlx5_12: PIX"
keys topo Down
wait_for topo "GPU1 0000:6b:00.0 to mlx5_13: PIX (nvidia-smi PIX), the NIC NCCL uses"
# A NIC of the other NUMA node: across the CPU interconnect.
keys topo Right Right Right
wait_for topo "GPU1 0000:6b:00.0 to mlx5_8: SYS (nvidia-smi SYS)"
wait_for topo "pci0000:64 > CPU interconnect > pci0000:c8"
keys topo q
wait_exit topo 0

tui_start bad 80 24 --root "$fix/h200x8-vm-topology-broken"
wait_for bad "Overview"
keys bad F12
# mlx5_12 is down: GPU0 goes to mlx5_13 across the host bridge.
wait_for bad "GPU0  PIX!     PHB*~"
wait_for bad "GPU0 0000:68:00.0 to mlx5_13: PHB (nvidia-smi PHB), the NIC NCCL uses"
keys bad Down
wait_for bad "0000:6a:00.0 switch port                      ACSCtl 0x001d redirects"
wait_for bad "GPUDirect RDMA: ACS at 0000:6a:00.0 sends it to the root complex"
wait_for bad "Peer memory: no module loaded"
keys bad Down Down Down
wait_for bad "0000:cc:00.0 NVIDIA      32.0 GT/s x8 (narrow)"
keys bad q
wait_exit bad 0

tui_summary
