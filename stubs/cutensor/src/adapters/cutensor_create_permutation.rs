//! `cutensorCreatePermutation` (`cutensor.h`, every 2.x): B = opA(αA) with permuted modes, the
//! compute descriptor last, which the stub translates (`super`).

#![allow(non_snake_case)]

use super::with_compute_descriptor;
use crate::types::{
    cutensorHandle_t, cutensorOperationDescriptor_t, cutensorOperator_t, cutensorTensorDescriptor_t,
};

with_compute_descriptor! {
    /// `cutensorStatus_t cutensorCreatePermutation(handle, desc, descA, modeA, opA, descB,
    /// modeB, const cutensorComputeDescriptor_t descCompute)`.
    fn cutensorCreatePermutation(
        handle: cutensorHandle_t,
        desc: *mut cutensorOperationDescriptor_t,
        descA: cutensorTensorDescriptor_t,
        modeA: *const i32,
        opA: cutensorOperator_t,
        descB: cutensorTensorDescriptor_t,
        modeB: *const i32,
    )
}
