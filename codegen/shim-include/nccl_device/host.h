/* Empty stand-in for NCCL's nccl_device/host.h (the device API's host functions, NCCL 2.28 and
 * later), for the NCCL wheels that lack it (nvidia-nccl-cu11 2.21.5): codegen parses the
 * spec's interop headers in every major, and a NCCL without the header declares none of its
 * functions. Never seen by a NCCL that has the header (its include folder comes first). */
