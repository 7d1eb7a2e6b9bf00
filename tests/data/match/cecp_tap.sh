#!/bin/sh
# SPDX-License-Identifier: MIT
# What carrera tells an xboard engine, recorded for test_xboard_match: `sh cecp_tap.sh LOG ENGINE
# [ARGS...]` runs the engine with everything written to it also copied to LOG.PID (one file per
# start of the engine); the engine's answers reach carrera unchanged.
log=$1
shift
tee "$log.$$" | "$@"
