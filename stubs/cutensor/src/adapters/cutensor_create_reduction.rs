//! `cutensorCreateReduction` (`cutensor.h`, every 2.x): D = α opReduce(opA(A)) + β opC(C), the
//! compute descriptor last, which the stub translates (`super`).

#![allow(non_snake_case)]

use super::with_compute_descriptor;
use crate::types::{
    cutensorHandle_t, cutensorOperationDescriptor_t, cutensorOperator_t, cutensorTensorDescriptor_t,
};

with_compute_descriptor! {
    /// `cutensorStatus_t cutensorCreateReduction(handle, desc, descA, modeA, opA, descC, modeC,
    /// opC, descD, modeD, cutensorOperator_t opReduce,
    /// const cutensorComputeDescriptor_t descCompute)`.
    fn cutensorCreateReduction(
        handle: cutensorHandle_t,
        desc: *mut cutensorOperationDescriptor_t,
        descA: cutensorTensorDescriptor_t,
        modeA: *const i32,
        opA: cutensorOperator_t,
        descC: cutensorTensorDescriptor_t,
        modeC: *const i32,
        opC: cutensorOperator_t,
        descD: cutensorTensorDescriptor_t,
        modeD: *const i32,
        opReduce: cutensorOperator_t,
    )
}
