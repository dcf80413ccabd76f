//! The element-wise operations (`cutensor.h`, every 2.x): `cutensorCreateElementwiseBinary`
//! (D = opAC(αA, γC)) and `cutensorCreateElementwiseTrinary` (D = opABC(opAB(αA, βB), γC)),
//! each with the compute descriptor last, which the stub translates (`super`).

#![allow(non_snake_case)]

use super::with_compute_descriptor;
use crate::types::{
    cutensorHandle_t, cutensorOperationDescriptor_t, cutensorOperator_t, cutensorTensorDescriptor_t,
};

with_compute_descriptor! {
    /// `cutensorStatus_t cutensorCreateElementwiseBinary(handle, desc, descA, modeA, opA,
    /// descC, modeC, opC, descD, modeD, cutensorOperator_t opAC,
    /// const cutensorComputeDescriptor_t descCompute)`.
    fn cutensorCreateElementwiseBinary(
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
        opAC: cutensorOperator_t,
    )
}

with_compute_descriptor! {
    /// `cutensorStatus_t cutensorCreateElementwiseTrinary(handle, desc, descA, modeA, opA,
    /// descB, modeB, opB, descC, modeC, opC, descD, modeD, cutensorOperator_t opAB,
    /// cutensorOperator_t opABC, const cutensorComputeDescriptor_t descCompute)`.
    fn cutensorCreateElementwiseTrinary(
        handle: cutensorHandle_t,
        desc: *mut cutensorOperationDescriptor_t,
        descA: cutensorTensorDescriptor_t,
        modeA: *const i32,
        opA: cutensorOperator_t,
        descB: cutensorTensorDescriptor_t,
        modeB: *const i32,
        opB: cutensorOperator_t,
        descC: cutensorTensorDescriptor_t,
        modeC: *const i32,
        opC: cutensorOperator_t,
        descD: cutensorTensorDescriptor_t,
        modeD: *const i32,
        opAB: cutensorOperator_t,
        opABC: cutensorOperator_t,
    )
}
