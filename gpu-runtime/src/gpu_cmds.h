/* gpu_cmds.h - the subcommands of react-gpu (internal). */
#ifndef REACT_GPU_CMDS_H
#define REACT_GPU_CMDS_H

#include <stdint.h>

#include "react/pattern.h"

int react_gpu_cmd_bench(int argc, char **argv);
int react_gpu_cmd_run(int argc, char **argv);
int react_gpu_cmd_kernels(int argc, char **argv);
int react_gpu_cmd_overhead(int argc, char **argv);
int react_gpu_cmd_switch(int argc, char **argv);
int react_gpu_cmd_flows(int argc, char **argv);

double react_gpu_now(void);
/* "8", "64K", "1M", "1G" (binary units, optional trailing B); -1 when malformed */
int react_gpu_parse_size(const char *s, uint64_t *out);
/* tree|ring|rhd (AllReduce), recdbl|ring-allgather (AllGather); -1 unknown */
int react_gpu_pattern_name(const char *name, react_collective_t *c, react_algorithm_t *a);
int react_gpu_mpi_rank(void);

#endif
