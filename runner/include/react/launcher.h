/*
 * launcher.h - whether this process was started by an MPI launcher
 * (mpirun, mpiexec, or srun with a PMI), read from the environment those
 * set, without MPI itself: react sweep --mpi and the gpu backend's nccl
 * transport refuse to initialise MPI otherwise.
 */
#ifndef REACT_LAUNCHER_H
#define REACT_LAUNCHER_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when one of OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK, PMI_SIZE is set */
int react_mpi_launched(void);

#ifdef __cplusplus
}
#endif
#endif
