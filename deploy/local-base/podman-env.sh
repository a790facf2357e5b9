# Sourced by this project's container scripts and tests: points podman at a settings file that fits
# the machines here, which refuse crun and podman's default ulimits. It names runc and limits equal to
# this shell's hard limits (a container may not exceed them), and is written under the work directory
# (outside the repository). Exports AGENT_CHAT_DEPLOY_WORK and CONTAINERS_CONF.
AGENT_CHAT_DEPLOY_WORK=${AGENT_CHAT_DEPLOY_WORK:-/var/tmp/agent-chat-deploy}
mkdir -p "$AGENT_CHAT_DEPLOY_WORK"
nofile=$(ulimit -Hn)
nproc=$(ulimit -Hu)
[[ $nofile == unlimited ]] && nofile=1048576
# Measured here: runc refused nproc limits from about 48,000 up, under a hard limit of 96,365.
[[ $nproc == unlimited ]] || ((nproc > 32768)) && nproc=32768
cat >"$AGENT_CHAT_DEPLOY_WORK/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]

[engine]
runtime = "runc"
CONF
export AGENT_CHAT_DEPLOY_WORK CONTAINERS_CONF="$AGENT_CHAT_DEPLOY_WORK/containers.conf"
