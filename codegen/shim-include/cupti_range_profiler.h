/* Empty stand-in for CUPTI's cupti_range_profiler.h (an API of CUPTI 12.x), for the CUPTI wheel that lacks
 * it (nvidia-cuda-cupti-cu11 11.8.87): codegen parses the spec's interop headers in every
 * major, and a CUPTI without the header declares none of its functions. Never seen by a CUPTI
 * that has the header (its include folder comes first). */
