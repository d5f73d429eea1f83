# profile.awk: one `perf report --stdio --no-children --sort sym` of one tool, its samples put in
# the classes of scripts/profile and printed as "class<TAB>percent", one line per class, in the
# order of CLASSES. The classes, by symbol:
#   copy  the kernel's copy of the payload between the user's buffer and a socket buffer, and
#         the loop that walks a buffer's pieces for it
#   call  what each system call and each message header costs, whatever its size: entry and
#         exit, the msghdr, iovec, address and control messages, the user pointers checked
#   wait  sleeping and waking: the scheduler, wake-ups, and (in a VM without a PMU, where perf
#         samples on a timer) the time with interrupts off, charged where they come back on
#   user  the tool's own code and libc: [.] symbols
#   stack everything else in the kernel, per datagram or per segment: buffers allocated and
#         freed, UDP and IP, the device, the queue of the socket (GSO and GRO included)
BEGIN {
	FS = "[ \t]+"
	split("copy call wait user stack", order, " ")
	copy["_copy_from_iter"]; copy["_copy_to_iter"]; copy["copy_user_generic"]
	copy["rep_movs_alternative"]; copy["copy_user_enhanced_fast_string"]; copy["copy_user_generic_string"]
	copy["csum_and_copy_from_iter"]; copy["csum_and_copy_to_iter"]; copy["csum_partial_copy_generic"]
	copy["__skb_datagram_iter"]; copy["skb_copy_datagram_iter"]; copy["simple_copy_to_iter"]
	copy["copy_page_from_iter"]; copy["copy_page_to_iter"]; copy["memcpy_orig"]; copy["__memcpy"]
	copy["memcpy"]; copy["ip_generic_getfrag"]
	n = split("do_syscall_64 entry_SYSCALL_64 entry_SYSCALL_64_after_hwframe syscall_return_via_sysret " \
		"syscall_exit_to_user_mode exit_to_user_mode_loop exit_to_user_mode_prepare " \
		"__rseq_handle_notify_resume rseq_ip_fixup rseq_update_cpu_node_id " \
		"__sys_sendmmsg __sys_recvmmsg do_recvmmsg ___sys_sendmsg ___sys_recvmsg ____sys_sendmsg " \
		"____sys_recvmsg __sys_sendto __sys_recvfrom __sys_sendmsg __sys_recvmsg " \
		"__x64_sys_sendmmsg __x64_sys_recvmmsg __x64_sys_sendto __x64_sys_recvfrom " \
		"__x64_sys_sendmsg __x64_sys_recvmsg copy_msghdr_from_user __copy_msghdr " \
		"import_iovec __import_iovec copy_iovec_from_user import_ubuf iovec_from_user " \
		"sockfd_lookup_light fdget __fget_light fput __fdget sock_sendmsg sock_recvmsg " \
		"inet_sendmsg inet_recvmsg inet6_sendmsg inet6_recvmsg security_socket_sendmsg " \
		"security_socket_recvmsg __check_object_size __virt_addr_valid check_heap_object " \
		"__check_heap_object is_vmalloc_addr check_stack_object move_addr_to_user " \
		"_copy_to_user _copy_from_user __put_user_1 __put_user_2 __put_user_4 __put_user_8 " \
		"__put_user_nocheck_4 __put_user_nocheck_8 __get_user_4 __get_user_8 " \
		"__get_user_nocheck_4 __get_user_nocheck_8 put_cmsg __sock_recv_cmsgs " \
		"__sock_recv_timestamp __sock_recv_wifi_status sock_recv_errqueue " \
		"rw_verify_area __audit_syscall_entry __audit_syscall_exit", w, " ")
	for (i = 1; i <= n; i++)
		call[w[i]]
	n = split("finish_task_switch finish_task_switch.isra.0 __schedule schedule schedule_timeout " \
		"schedule_hrtimeout_range_clock __skb_wait_for_more_packets try_to_wake_up " \
		"_raw_spin_unlock_irqrestore _raw_spin_unlock_irq __wake_up_common __wake_up_sync_key " \
		"__wake_up autoremove_wake_function ttwu_do_activate enqueue_task_fair dequeue_task_fair " \
		"pick_next_task_fair update_curr do_idle default_idle pv_native_safe_halt " \
		"native_safe_halt __raw_callee_save___pv_queued_spin_unlock", w, " ")
	for (i = 1; i <= n; i++)
		wait[w[i]]
}
/^#/ || !/%/ { next }
{
	# "    53.25%  [k] _copy_from_iter": the percent, the space, the symbol
	pct = ""; space = ""; sym = ""
	for (i = 1; i <= NF; i++) {
		if (pct == "" && $i ~ /%$/) { pct = $i; sub(/%$/, "", pct); continue }
		if (pct != "" && space == "" && $i ~ /^\[.\]$/) { space = $i; continue }
		if (space != "" && $i != "") { sym = $i; break }
	}
	if (pct == "" || space == "")
		next
	if (space == "[.]")
		c = "user"
	else if (sym in copy)
		c = "copy"
	else if (sym in call || sym ~ /^__x64_sys_/)
		c = "call"
	else if (sym in wait)
		c = "wait"
	else
		c = "stack"
	sum[c] += pct
}
END {
	for (i = 1; i <= 5; i++)
		printf "%s\t%.1f\n", order[i], sum[order[i]] + 0
}
