#!/bin/sh
# The DCTCP window model's directories of results/paper: make.sh --backend
# dctcp (its header says what each directory holds).
#   results/paper/make-dctcp.sh [-j N] [--no-oracle] [-s FIGS] [-p PROFILE]
exec "$(dirname "$0")/make.sh" --backend dctcp "$@"
