# SPDX-License-Identifier: GPL-2.0
# Helpers for the vring firewall's scenarios (ampsoc-vring-poke); source
# after lib.sh and lib/core.sh: . /ampsoc/lib/firewall.sh

# poke_ept: an endpoint to the firmware's ampsoc-vring-poke channel in EPT
EPT=
poke_ept() {
	_ctrl=$(ls /dev/rpmsg_ctrl* | head -n 1)
	_p=$(ls -d /sys/bus/rpmsg/devices/*.ampsoc-vring-poke.* 2>/dev/null | head -n 1)
	[ -n "$_p" ] || return 1
	EPT=$(ampsocctl ept "$_ctrl" poke-test 3200 "$(($(cat "$_p/dst")))" create)
	[ -c "$EPT" ]
}
# poke COMMAND...: one command to the firmware, its answer
poke() { ampsocctl ept "$EPT" call "$*"; }
# addr_of desc|avail|used tx|rx: that part's device address, from the
# answer to "where" saved in WHERE
addr_of() {
	echo "$WHERE" | awk -v r="$2" -v p="$1" '{
		for (i = 1; i <= NF; i++) if ($i == r) {
			o = p == "desc" ? 1 : p == "avail" ? 2 : 3; print $(i + o) } }'
}
